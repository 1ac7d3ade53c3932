-- The admission log: every row of admission_event (job and workflow events from Kafka, and what the HTTP API
-- receives: submissions, completions, workflows, policy changes, timer passes) gets a gapless position per cluster,
-- assigned once under a per-cluster advisory lock (io.fairledger.admission.AdmissionLog). Each server applies the
-- rows in position order, so every replica and every restart derives the same admission state. NULL: not yet
-- sequenced (rows the Kafka consumer just stored).
ALTER TABLE admission_event ADD COLUMN position BIGINT;
CREATE UNIQUE INDEX admission_event_position ON admission_event (cluster_id, position);
CREATE INDEX admission_event_unsequenced ON admission_event (cluster_id) WHERE position IS NULL;
