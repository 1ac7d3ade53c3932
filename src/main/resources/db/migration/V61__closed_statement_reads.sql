-- Reads of closed periods without parsing every stored statement (issue #15, io.fairledger.accounting.ClosedStatementTable).
--
-- head: the statement without its lines (cluster, period, start, end, state, model, currency, totalCharge), a few
-- hundred bytes kept in the row, for callers that need the periods but not their bodies.
ALTER TABLE closed_statement ADD COLUMN head JSONB GENERATED ALWAYS AS (statement - 'lines') STORED;
-- api_json: the statement exactly as the HTTP API writes it, so a read sends the stored text without parsing it. It is
-- derived from statement (one text per row, never changed once set); rows closed before this migration get it at
-- their first read.
-- Kept uncompressed (STORAGE EXTERNAL): it is read whole at every request, and decompressing ~10 MB per request would
-- cost more than the disk it saves.
ALTER TABLE closed_statement ADD COLUMN api_json TEXT;
ALTER TABLE closed_statement ALTER COLUMN api_json SET STORAGE EXTERNAL;
-- One row per line of every closed statement, in the same transaction as the statement, so a tenant's fairness and
-- statements read its own lines (about one per period) and not every tenant's. line_no is the line's place in the
-- statement; tenant sorts bytewise (COLLATE "C") so a subtree is a range of the primary key.
CREATE TABLE closed_statement_line (
    cluster_id    TEXT              NOT NULL,
    period_id     TEXT              NOT NULL,
    period_end_ms BIGINT            NOT NULL,
    tenant        TEXT COLLATE "C"  NOT NULL,
    line_no       INTEGER           NOT NULL,
    line          JSONB             NOT NULL,
    PRIMARY KEY (cluster_id, tenant, period_end_ms),
    FOREIGN KEY (cluster_id, period_id) REFERENCES closed_statement (cluster_id, period_id)
);
INSERT INTO closed_statement_line (cluster_id, period_id, period_end_ms, tenant, line_no, line)
SELECT s.cluster_id, s.period_id, s.period_end_ms, l.line ->> 'tenant', l.n, l.line
FROM closed_statement s, jsonb_array_elements(s.statement -> 'lines') WITH ORDINALITY AS l (line, n);
