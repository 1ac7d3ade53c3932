package io.fairledger.core.admission;

/**
 * The Oracle reference allocator (Dimopoulos's dissertation (2018) section 4.2 and chapter 5): it knows each job's
 * {@code compTime} and gives it the fewest CPUs that finish it by the deadline under perfect parallelism,
 * {@code reqCpus = max(ceil(compTime / TTD), 1)} (docs/domain.md section 9). It queues what does not fit, drops a job
 * once {@code reqCpus > maxCPUs} or its TTD is gone, and orders the queue by {@code reqCpus / TTD} ("fewer required
 * resources and longer time until the deadline"). No bootstrap, no kills: an admitted job always meets its deadline.
 */
public final class Oracle extends StatefulPolicy {

    private static final double MILLIS_PER_SECOND = 1000.0;

    private final AdmissionEngine engine;

    public Oracle(int capacity, PriorityPolicy priority, boolean indexed) {
        RequestEstimator estimator = new RequestEstimator() {
            @Override
            public boolean bootstrapping() {
                return false;
            }

            @Override
            public double fraction() {
                return 0; // requests do not scale with any learnt fraction
            }

            @Override
            public long requiredCpus(QueuedJob job, long ttdMillis, double fraction) {
                double cpuMillis = job.request.compTimeCpuSeconds() * MILLIS_PER_SECOND;
                return Math.max((long) Math.ceil(cpuMillis / ttdMillis), 1);
            }

            @Override
            public long minimalCpus(int maxCpus, double fraction) {
                return 1;
            }

            @Override
            public long ttdBoundaryGuess(QueuedJob job, long request, double fraction) {
                return (long) Math.ceil(job.request.compTimeCpuSeconds() * MILLIS_PER_SECOND / request) - 1;
            }

            @Override
            public double fractionBoundaryGuess(QueuedJob job, long ttdMillis, long request) {
                return requiredCpus(job, ttdMillis, 0) <= request ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
            }
        };
        this.engine = new AdmissionEngine(capacity, AdmissionEngine.queue(indexed, estimator, priority, capacity),
                JusticeConfig.NEVER_KILL, (job, completion, met) -> {
                });
    }

    public Oracle(int capacity) {
        this(capacity, PriorityPolicy.REQ_CPUS_PER_TTD, true);
    }

    @Override
    AdmissionState state() {
        return engine;
    }

    @Override
    public String name() {
        return "oracle";
    }

    @Override
    public AllocationModel allocationModel() {
        return AllocationModel.FIXED;
    }
}
