-- A closed period is stored with what it was computed from: the ledger settings it was kept under (tenant tree
-- included), so a late fact for it is priced under them and not under settings changed afterwards, and the position in
-- the arrival order of facts (the id of the transaction that stored the fact that closed it) it was computed at
-- (io.fairledger.accounting.PeriodCloser). Rows closed before this migration have neither: they are read with the
-- settings in force and position 0.
ALTER TABLE closed_statement ADD COLUMN settings JSONB;
ALTER TABLE closed_statement ADD COLUMN fact_position BIGINT NOT NULL DEFAULT 0;
