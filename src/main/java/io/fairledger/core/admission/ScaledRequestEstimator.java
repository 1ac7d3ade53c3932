package io.fairledger.core.admission;

/**
 * The request of a queued job under a global CPU fraction, shared by {@link Justice} and {@link Pythia}: {@code
 * reqCpus = max(ceil(fraction * deadline / TTD * maxCPUs), 1)} (Dimopoulos's dissertation (2018) Algorithm 6 lines
 * 21-30 with {@code allocCPUFrac}; Algorithm 1 with {@code CPUFrac}), {@code maxCPUs} during bootstrap. The one copy of
 * the formula: the policies supply only the fraction and the bootstrap state.
 *
 * <p>
 * Evaluated in double precision in this order, {@code ((fraction * (deadline / TTD)) * maxCPUs)}, then rounded up.
 * Every step rounds monotonically, so the result is non-decreasing in the fraction and, for a fraction not below 0,
 * non-increasing in the TTD; and since {@code deadline / TTD >= 1} once the job is submitted, it is at least the
 * value at {@code TTD = deadline}, which depends on {@code maxCPUs} alone ({@link #minimalCpus}).
 */
abstract class ScaledRequestEstimator implements RequestEstimator {

    /** {@code max(ceil(fraction * urgency * maxCpus), 1)} in double precision, urgency being {@code deadline / TTD}. */
    static long cpus(double fraction, double urgency, int maxCpus) {
        double scaled = fraction * urgency;
        return Math.max((long) Math.ceil(scaled * maxCpus), 1);
    }

    @Override
    public final long requiredCpus(QueuedJob job, long ttdMillis, double fraction) {
        return cpusAtUrgency(job.maxCpus, job.urgency(ttdMillis), fraction);
    }

    @Override
    public final boolean scalesWithUrgency() {
        return true;
    }

    @Override
    public final long cpusAtUrgency(int maxCpus, double urgency, double fraction) {
        return bootstrapping() ? maxCpus : cpus(fraction, urgency, maxCpus);
    }

    @Override
    public final long minimalCpus(int maxCpus, double fraction) {
        return cpusAtUrgency(maxCpus, 1.0, fraction);
    }

    @Override
    public final long ttdBoundaryGuess(QueuedJob job, long request, double fraction) {
        return (long) Math.ceil(fraction * job.request.deadlineMillis() * job.maxCpus / request) - 1;
    }

    @Override
    public final double fractionBoundaryGuess(QueuedJob job, long ttdMillis, long request) {
        if (bootstrapping()) {
            return job.maxCpus <= request ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
        }
        return request / (((double) job.request.deadlineMillis() / ttdMillis) * job.maxCpus);
    }
}
