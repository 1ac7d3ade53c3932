-- The source watermarks of each cluster at the position its periods were last closed at
-- (io.fairledger.accounting.ClosingWatermarkTable, docs/accounting.md "Per-source watermarks"): per source (a Kafka
-- topic partition, "fairledger.events-3") the latest event time it delivered and the arrival time (ingested_at, in
-- epoch ms) of its last delivery, with the closing watermark there and the idle timeout it was computed under. The
-- next close resumes from them instead of reading every transaction of the cluster again; one row per cluster, the
-- latest position. A cluster without a row, or whose row is for another position, is read from its first transaction.
CREATE TABLE closing_watermark (
    cluster_id      TEXT   NOT NULL PRIMARY KEY,
    fact_position   BIGINT NOT NULL,
    idle_timeout_ms BIGINT NOT NULL,
    watermark_ms    BIGINT NOT NULL,
    sources         JSONB  NOT NULL
);
