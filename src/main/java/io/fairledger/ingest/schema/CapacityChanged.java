package io.fairledger.ingest.schema;

import java.time.Instant;

/**
 * Cluster capacity changed (schema {@code kafka-schemas/CapacityChanged.avsc}): a node with these resources was added
 * or removed, or these are the cluster's new totals.
 *
 * @param node the node added or removed; null for {@link CapacityChange#TOTALS}
 */
public record CapacityChanged(String eventId, String cluster, Instant eventTime, CapacityChange change, String node,
        double cpus, long memoryMb, double gpus) implements FairledgerEvent {
}
