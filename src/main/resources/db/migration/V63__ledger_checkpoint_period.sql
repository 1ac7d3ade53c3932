-- The period open in each live-ledger checkpoint (io.fairledger.live.LedgerCheckpoints): besides the newest
-- checkpoints, the newest one of each recent period is kept (fairledger.live.checkpoint.periods), which for an ended
-- period is its state at the period's end. Null for checkpoints stored before: those are thinned as before.
ALTER TABLE ledger_checkpoint ADD COLUMN open_period TEXT;
