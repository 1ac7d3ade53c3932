package io.fairledger.core.admission;

/**
 * The CPUs a queued job needs, as its time to deadline shrinks ({@code ESTIMATE_REQ}, seed 001 Algorithm 6 lines
 * 21-30). Implementations keep their state fixed between calls to {@link AdmissionQueue#estimatesChanged()}.
 */
interface RequestEstimator {

    /** True while the policy has too little history: requests are {@code maxCPUs} and a job may get less. */
    boolean bootstrapping();

    /**
     * {@code reqCpus} for {@code job} with {@code ttdMillis > 0} left; non-increasing in {@code ttdMillis} and at least
     * 1. A value above {@code maxCPUs} means the job is infeasible.
     */
    long requiredCpus(QueuedJob job, long ttdMillis);

    /**
     * A guess of the largest TTD at which {@link #requiredCpus} exceeds {@code request}; only a starting point for an
     * exact search, so any value is correct, a close one is fast.
     */
    long boundaryGuess(QueuedJob job, long request);
}
