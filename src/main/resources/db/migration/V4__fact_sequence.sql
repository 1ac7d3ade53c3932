-- The order in which facts were committed, so each server's live ledger can read what is new since its last look
-- (facts committed by any server of the consumer group). Gaps are normal (rolled-back batches).
ALTER TABLE ledger_fact ADD COLUMN seq BIGSERIAL;
CREATE INDEX ledger_fact_seq ON ledger_fact (cluster_id, seq);
