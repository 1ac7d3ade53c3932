-- ledger_fact becomes a table partitioned by range of event_time_ms, one partition per calendar month (UTC), so that
-- the facts of old months can be dropped whole once nothing needs them (io.fairledger.retention.FactRetention,
-- docs/operations.md "Retention of facts"). A default partition takes every fact no month partition covers (a month
-- not created yet, a fact from 1970 or 2200): no fact ever fails to store for lack of a partition. The server creates
-- the month partitions ahead of time and moves rows out of the default partition into their month
-- (io.fairledger.facts.FactPartitions).
--
-- A unique index of a partitioned table must include the partition key, and a task's start can be stored again with
-- an earlier event time (docs/ingestion.md), possibly in another month: so the one-fact-per-key rule moves to
-- ledger_fact_key, a plain table with one row per stored fact (its cluster, dedupe key and event time), the only
-- unique index on dedupe keys (io.fairledger.facts.FactWriter). ledger_fact's own key (cluster, dedupe key, event
-- time) finds a fact's row in its month.
ALTER TABLE ledger_fact RENAME TO ledger_fact_unpartitioned;
ALTER INDEX ledger_fact_tx RENAME TO ledger_fact_unpartitioned_tx;
ALTER TABLE ledger_fact_unpartitioned RENAME CONSTRAINT ledger_fact_pkey TO ledger_fact_unpartitioned_pkey;

CREATE TABLE ledger_fact (
    cluster_id       TEXT        NOT NULL,
    dedupe_key       TEXT        NOT NULL,
    event_id         TEXT        NOT NULL,
    event_time_ms    BIGINT      NOT NULL,
    kind             TEXT        NOT NULL,
    fact             TEXT        NOT NULL,
    source_topic     TEXT        NOT NULL,
    source_partition INT         NOT NULL,
    source_offset    BIGINT      NOT NULL,
    ingested_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    tx               XID8        NOT NULL DEFAULT pg_current_xact_id(),
    PRIMARY KEY (cluster_id, dedupe_key, event_time_ms)
) PARTITION BY RANGE (event_time_ms);
CREATE INDEX ledger_fact_tx ON ledger_fact (tx);
CREATE TABLE ledger_fact_default PARTITION OF ledger_fact DEFAULT;

CREATE TABLE ledger_fact_key (
    cluster_id    TEXT   NOT NULL,
    dedupe_key    TEXT   NOT NULL,
    event_time_ms BIGINT NOT NULL,
    PRIMARY KEY (cluster_id, dedupe_key)
);

-- A month partition for each month (1970 to 2199) that holds facts, and for this month and the next; the rest of the
-- rows go to the default partition.
DO $$
DECLARE
    month_start TIMESTAMPTZ;
BEGIN
    FOR month_start IN
        SELECT DISTINCT date_trunc('month', to_timestamp(event_time_ms / 1000.0) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
        FROM ledger_fact_unpartitioned
        WHERE event_time_ms >= 0 AND event_time_ms < 7258118400000
        UNION
        SELECT date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
        UNION
        SELECT (date_trunc('month', now() AT TIME ZONE 'UTC') + INTERVAL '1 month') AT TIME ZONE 'UTC'
    LOOP
        EXECUTE format('CREATE TABLE %I PARTITION OF ledger_fact FOR VALUES FROM (%s) TO (%s)',
            'ledger_fact_' || to_char(month_start AT TIME ZONE 'UTC', 'YYYY_MM'),
            (extract(epoch FROM month_start) * 1000)::bigint,
            (extract(epoch FROM (month_start AT TIME ZONE 'UTC' + INTERVAL '1 month') AT TIME ZONE 'UTC') * 1000)::bigint);
    END LOOP;
END $$;

INSERT INTO ledger_fact (cluster_id, dedupe_key, event_id, event_time_ms, kind, fact, source_topic, source_partition,
        source_offset, ingested_at, tx)
    SELECT cluster_id, dedupe_key, event_id, event_time_ms, kind, fact, source_topic, source_partition, source_offset,
        ingested_at, tx
    FROM ledger_fact_unpartitioned;
INSERT INTO ledger_fact_key (cluster_id, dedupe_key, event_time_ms)
    SELECT cluster_id, dedupe_key, event_time_ms FROM ledger_fact_unpartitioned;
DROP TABLE ledger_fact_unpartitioned;

-- Per cluster, from when its facts are kept whole: set by retention before it drops a month holding facts of the
-- cluster. Its facts before replayable_from_ms may be gone; the checkpoint of its live ledger at replayable_from_ms - 1
-- under settings_version is pinned (never pruned), and the ledger is rebuilt from it, never from the registration.
CREATE TABLE retention_floor (
    cluster_id         TEXT        NOT NULL PRIMARY KEY REFERENCES cluster (id),
    replayable_from_ms BIGINT      NOT NULL,
    settings_version   TEXT        NOT NULL,
    set_at             TIMESTAMPTZ NOT NULL DEFAULT now()
);
ALTER TABLE ledger_checkpoint ADD COLUMN pinned BOOLEAN NOT NULL DEFAULT FALSE;
