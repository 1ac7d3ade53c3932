-- Checkpoints of the live ledgers (io.fairledger.live.LedgerCheckpoints): a cluster's whole replay state
-- (core.replay.Checkpoint, versioned binary) after every fact with event time <= event_time_ms stored by transactions
-- before fact_horizon (the fact cursor's position) was applied, under the settings whose version it names. A restart
-- restores the newest usable one and replays only the facts after it; a late fact rebuilds from the newest one before
-- its event time. A checkpoint is usable when it was made under the live settings and no fact stored at or after its
-- horizon is at or before its event time (else it lacks that fact and is deleted).
CREATE TABLE ledger_checkpoint (
    cluster_id       TEXT        NOT NULL REFERENCES cluster (id),
    settings_version TEXT        NOT NULL,
    event_time_ms    BIGINT      NOT NULL,
    fact_horizon     XID8        NOT NULL,
    facts            BIGINT      NOT NULL,
    state            BYTEA       NOT NULL,
    created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (cluster_id, settings_version, event_time_ms)
);
