-- Clusters (one YARN ResourceManager or Mesos master each) and their tenant tree.

CREATE TABLE cluster (
    id                TEXT PRIMARY KEY,
    name              TEXT        NOT NULL,
    resource_manager  TEXT        NOT NULL CHECK (resource_manager IN ('YARN', 'MESOS')),
    discount_rate     NUMERIC(6, 5) NOT NULL DEFAULT 1 CHECK (discount_rate >= 0 AND discount_rate <= 1),
    created_at        TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE tenant (
    id                     BIGSERIAL PRIMARY KEY,
    cluster_id             TEXT        NOT NULL REFERENCES cluster (id),
    path                   TEXT        NOT NULL,
    parent_path            TEXT,
    weight                 NUMERIC(12, 6) NOT NULL DEFAULT 1 CHECK (weight >= 0),
    discount_rate_override NUMERIC(6, 5) CHECK (discount_rate_override >= 0 AND discount_rate_override <= 1),
    created_at             TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at             TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (cluster_id, path)
);

CREATE INDEX tenant_parent ON tenant (cluster_id, parent_path);
