/**
 * The intake of events from Kafka: the consumer's poll loop, rebalances and commit pipeline, the one intake that
 * decodes, checks, normalises and deduplicates each record into facts, registrations, dead letters, and the consumer's
 * offsets (table {@code consumer_offset}), meters and health.
 */
package io.fairledger.ingest;
