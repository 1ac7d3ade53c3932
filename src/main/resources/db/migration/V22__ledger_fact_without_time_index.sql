-- No query reads ledger_fact by event-time range: the replay reads a cluster's facts whole (and sorts them), the live
-- ledger reads them by transaction id (ledger_fact_tx). The (cluster_id, event_time_ms) index only cost every ingested
-- fact a B-tree insertion at a scattered place (docs/benchmarks.md, ingestion, fourth round).
DROP INDEX ledger_fact_time;
