-- Each entry of a cluster's ledger settings' `earlier` (the tenants, discount rate and prices in force before a change,
-- io.fairledger.tenancy.SettingsSegment) in a row of its own, by its place, oldest first: a change writes the entries it
-- changes (usually the last one and a new one), where it wrote the whole document with every entry the cluster's
-- history holds (84 KB with 200 entries, at every change). The document in cluster.ledger_settings keeps the rest.
-- Moves the entries stored so far; a server older than V68 would read the settings without them (docs/operations.md:
-- roll back from the backup taken before the upgrade).
CREATE TABLE ledger_settings_entry (
    cluster_id TEXT  NOT NULL REFERENCES cluster (id) ON DELETE CASCADE,
    position   INT   NOT NULL,
    entry      JSONB NOT NULL,
    PRIMARY KEY (cluster_id, position)
);

INSERT INTO ledger_settings_entry (cluster_id, position, entry)
SELECT c.id, e.n - 1, e.entry
FROM cluster c, jsonb_array_elements(c.ledger_settings -> 'earlier') WITH ORDINALITY AS e(entry, n)
WHERE jsonb_typeof(c.ledger_settings -> 'earlier') = 'array';

UPDATE cluster SET ledger_settings = ledger_settings - 'earlier' WHERE ledger_settings -> 'earlier' IS NOT NULL;
