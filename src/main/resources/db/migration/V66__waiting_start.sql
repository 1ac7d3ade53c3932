-- The Mesos task starts without resources that wait for their task's resources (io.fairledger.ingest.WaitingStarts,
-- docs/ingestion.md "Duplicates, order and lateness"), one row per waiting record of a consumer group's partition.
-- Written with the batch's facts and offsets in one transaction (io.fairledger.ingest.WaitingStartTable): a row is
-- inserted with the batch that read its record and deleted with the batch that releases it (its start stored) or
-- expires it (its dead letter sent), so after any crash the rows are exactly the waiting starts of the records before
-- the stored offsets. The record itself (key, value, headers, timestamp) is kept for the dead letter of an expired one.
CREATE TABLE waiting_start (
    group_id         TEXT    NOT NULL,
    topic            TEXT    NOT NULL,
    partition        INTEGER NOT NULL,
    record_offset    BIGINT  NOT NULL,
    cluster_id       TEXT    NOT NULL,
    task_id          TEXT    NOT NULL,
    state            TEXT    NOT NULL,
    event_time_ms    BIGINT  NOT NULL,
    record_timestamp BIGINT  NOT NULL,
    record_key       BYTEA,
    record_value     BYTEA,
    record_headers   BYTEA   NOT NULL,
    PRIMARY KEY (group_id, topic, partition, record_offset)
);
