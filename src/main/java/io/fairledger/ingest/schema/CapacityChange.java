package io.fairledger.ingest.schema;

/**
 * Kind of capacity change. {@link #UNKNOWN} is what an Avro reader gets for a symbol added in a later schema version;
 * the decoder rejects events of that kind.
 */
public enum CapacityChange {
    NODE_ADDED, NODE_REMOVED, TOTALS, UNKNOWN
}
