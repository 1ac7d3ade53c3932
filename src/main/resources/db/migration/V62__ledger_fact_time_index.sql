-- Reads by event-time range come back (V22 dropped the index when nothing read that way): a live ledger restored from a
-- checkpoint reads the facts after its instant (FactCursor.forEachSince), the period closer and a what-if read a window
-- (forEachBetween), the closer resumes from the latest event time stored up to its last closing position
-- (latestStored), and a checkpoint is checked against the earliest fact stored since (earliestStored). Without an
-- index each of them scans and sorts whole monthly partitions of the cluster. A B-tree on (cluster, event time) gives
-- the rows in event-time order without a sort (ties by dedupe key are sorted incrementally, a few rows at a time) and
-- the latest event time by reading backwards; facts arrive in nearly event-time order, so each insertion lands on the
-- right-hand pages of its cluster (docs/benchmarks.md, "Event-time index").
CREATE INDEX ledger_fact_time ON ledger_fact (cluster_id, event_time_ms);
