-- Every administrative change: who made it, when, what it was before and after, and from when it takes effect.
CREATE TABLE audit_entry (
    id             BIGSERIAL   PRIMARY KEY,
    at             TIMESTAMPTZ NOT NULL DEFAULT now(),
    actor          TEXT        NOT NULL,
    cluster_id     TEXT,
    subject        TEXT        NOT NULL,
    before_value   JSONB,
    after_value    JSONB,
    effective_from TIMESTAMPTZ NOT NULL
);
CREATE INDEX audit_entry_cluster ON audit_entry (cluster_id, at);
