package io.fairledger.core.admission;

import java.util.Objects;

/** What an {@link AdmissionPolicy} decided for one job at one event. Immutable. */
public sealed interface Decision permits Decision.Admit, Decision.Queue, Decision.Drop, Decision.Kill {

    /** The job the decision is about. */
    String jobId();

    /**
     * Start the job now with {@code cpus} CPUs. For {@link AllocationModel#FIXED} policies the allocation never
     * changes while the job runs; for {@link AllocationModel#FAIR_SHARE} it is the job's cap, the share itself follows
     * {@link MaxMinShares}.
     */
    record Admit(String jobId, int cpus) implements Decision {
        public Admit {
            Objects.requireNonNull(jobId, "jobId");
            if (cpus < 1) {
                throw new IllegalArgumentException("an admitted job needs at least one CPU, got " + cpus);
            }
        }
    }

    /** The job waits in the queue; it will be reconsidered at the next event. */
    record Queue(String jobId) implements Decision {
        public Queue {
            Objects.requireNonNull(jobId, "jobId");
        }
    }

    /** The job is rejected without having run; {@code reason} says why. */
    record Drop(String jobId, String reason) implements Decision {
        public Drop {
            Objects.requireNonNull(jobId, "jobId");
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** The running job is terminated; {@code reason} says why. */
    record Kill(String jobId, String reason) implements Decision {
        public Kill {
            Objects.requireNonNull(jobId, "jobId");
            Objects.requireNonNull(reason, "reason");
        }
    }
}
