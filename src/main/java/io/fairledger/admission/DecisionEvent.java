package io.fairledger.admission;

import java.time.Instant;

/** An admission decision as published (Kafka topic {@code fairledger.admission-decisions}) and returned. */
public record DecisionEvent(String cluster, long position, Instant at, String policy, String jobId, String tenant,
        String outcome, Integer cpus, String reason) {
}
