-- Facts are checked against the cluster table by the one writer of ledger_fact, the Kafka consumer
-- (io.fairledger.ingest.EventConsumer dead-letters an event of an unregistered cluster before it becomes a fact), and
-- no cluster is ever deleted; the foreign key repeated that check for every fact row, through a row trigger that cost
-- PostgreSQL about a fifth of its work per ingested fact (docs/benchmarks.md, ingestion, third round).
ALTER TABLE ledger_fact DROP CONSTRAINT ledger_fact_cluster_id_fkey;
