package io.fairledger.facts;

/**
 * A fact with the record it came from: the event id and the Kafka topic, partition and offset stored beside it in
 * {@code ledger_fact}, so every stored row can be traced to the record that reported it.
 */
public record SourcedFact(LedgerFact fact, String eventId, String topic, int partition, long offset) {
}
