-- The transaction that stored each fact, so each server's live ledger can read what is new since its last look, from
-- whichever server of the consumer group committed it: every fact of a transaction older than the oldest transaction
-- still running is final, so a reader that takes facts by ranges of transaction ids below that horizon misses none
-- and reads none twice (io.fairledger.live.FactCursor).
ALTER TABLE ledger_fact ADD COLUMN tx XID8 NOT NULL DEFAULT pg_current_xact_id();
CREATE INDEX ledger_fact_tx ON ledger_fact (tx);
