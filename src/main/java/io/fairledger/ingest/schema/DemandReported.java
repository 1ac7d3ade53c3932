package io.fairledger.ingest.schema;

import java.time.Instant;

/**
 * Resources a tenant or one of its applications is waiting for (schema {@code kafka-schemas/DemandReported.avsc}); a
 * snapshot that replaces the previous report for the same tenant and application.
 *
 * @param applicationId the application the demand belongs to; null for the tenant's total demand
 * @param pendingTasks containers or tasks not yet allocated; null when unknown
 */
public record DemandReported(String eventId, String cluster, Instant eventTime, String tenant, String applicationId,
        double pendingCpus, long pendingMemoryMb, double pendingGpus, Integer pendingTasks) implements FairledgerEvent {
}
