-- How each cluster's books are kept (the JSON document of io.fairledger.tenancy.LedgerSettings, tenants apart:
-- those live in the tenant table).
ALTER TABLE cluster ADD COLUMN ledger_settings JSONB;

-- Every fact a resource manager reported, once. The ledger is the replay of these in event-time order, so arrival
-- order never matters; a redelivered event (same event id) or a repeated task transition (same dedupe key) is
-- rejected by the primary key. A fact is a small JSON document (io.fairledger.accounting.FactCodec), stored as text:
-- it is only ever read back whole, and text is cheaper to insert than JSONB.
CREATE TABLE ledger_fact (
    cluster_id       TEXT        NOT NULL REFERENCES cluster (id),
    dedupe_key       TEXT        NOT NULL,
    event_id         TEXT        NOT NULL,
    event_time_ms    BIGINT      NOT NULL,
    kind             TEXT        NOT NULL,
    fact             TEXT        NOT NULL,
    source_topic     TEXT        NOT NULL,
    source_partition INT         NOT NULL,
    source_offset    BIGINT      NOT NULL,
    ingested_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (cluster_id, dedupe_key)
);
CREATE INDEX ledger_fact_time ON ledger_fact (cluster_id, event_time_ms);

-- Job and workflow events, kept as received for the admission service.
CREATE TABLE admission_event (
    cluster_id       TEXT        NOT NULL REFERENCES cluster (id),
    event_id         TEXT        NOT NULL,
    event_time_ms    BIGINT      NOT NULL,
    kind             TEXT        NOT NULL,
    content_type     TEXT,
    payload          BYTEA       NOT NULL,
    ingested_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (cluster_id, event_id)
);

-- The consumer group's position, committed in the same transaction as the facts it produced.
CREATE TABLE consumer_offset (
    group_id    TEXT   NOT NULL,
    topic       TEXT   NOT NULL,
    partition   INT    NOT NULL,
    next_offset BIGINT NOT NULL,
    PRIMARY KEY (group_id, topic, partition)
);
