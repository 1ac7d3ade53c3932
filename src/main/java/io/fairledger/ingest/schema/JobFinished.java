package io.fairledger.ingest.schema;

import java.time.Instant;

/**
 * A job ended (schema {@code kafka-schemas/JobFinished.avsc}).
 *
 * @param compTimeCpuSeconds computation time the job consumed, in CPU-seconds
 * @param allocatedCpus CPUs allocated to the job while it ran
 */
public record JobFinished(String eventId, String cluster, Instant eventTime, String jobId, String tenant,
        double compTimeCpuSeconds, double allocatedCpus, JobOutcome outcome) implements FairledgerEvent {
}
