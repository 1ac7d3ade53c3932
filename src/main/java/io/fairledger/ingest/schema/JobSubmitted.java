package io.fairledger.ingest.schema;

import java.time.Instant;

/**
 * A job was submitted (schema {@code kafka-schemas/JobSubmitted.avsc}).
 *
 * @param relativeDeadlineSeconds deadline in seconds after {@link #eventTime()}; null when the job has none
 * @param workflowId the workflow the job belongs to; null for a stand-alone job
 */
public record JobSubmitted(String eventId, String cluster, Instant eventTime, String jobId, String tenant,
        int requestedTasks, Long relativeDeadlineSeconds, String workflowId) implements FairledgerEvent {
}
