-- Tamper-evident closed statements (issue #31, docs/billing.md "Verifying closed statements"): each period closed from
-- this version on carries its place in its cluster's chain (io.fairledger.core.chain.ChainLink). chain_hash is SHA-256
-- of chain_previous's 32 bytes followed by the RFC 8785 canonical form of statement; chain_signature is the ledger
-- key's Ed25519 signature of it. Rows closed before this migration have no chain (all NULL): the first period closed
-- after it links to the genesis value, 32 zero bytes, with sequence 1. No row's chain is ever rewritten.
ALTER TABLE closed_statement ADD COLUMN chain_sequence BIGINT;
ALTER TABLE closed_statement ADD COLUMN chain_previous TEXT;
ALTER TABLE closed_statement ADD COLUMN chain_hash TEXT;
ALTER TABLE closed_statement ADD COLUMN chain_signature TEXT;
ALTER TABLE closed_statement ADD COLUMN chain_key_id TEXT;
-- one period per place in a cluster's chain: replicas racing to close a period insert the same row, and the loser's
-- insert does nothing (ON CONFLICT DO NOTHING)
CREATE UNIQUE INDEX closed_statement_chain ON closed_statement (cluster_id, chain_sequence);
