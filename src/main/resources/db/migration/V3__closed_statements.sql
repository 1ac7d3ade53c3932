-- Statements of closed periods, as they were closed: immutable. A late fact for a closed period changes its
-- recomputation, and the difference is carried as adjustment lines by the next statement to close.
CREATE TABLE closed_statement (
    cluster_id    TEXT        NOT NULL REFERENCES cluster (id),
    period_id     TEXT        NOT NULL,
    period_end_ms BIGINT      NOT NULL,
    statement     JSONB       NOT NULL,
    closed_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (cluster_id, period_id)
);
