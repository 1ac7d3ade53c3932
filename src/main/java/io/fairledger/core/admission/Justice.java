package io.fairledger.core.admission;

/**
 * Justice: deadline-aware, fair-share admission control (Dimopoulos, Krintz, Wolski, 2019, Algorithms 1-3, Dimopoulos's
 * dissertation (2018) chapter 5 Algorithms 3-6, Dimopoulos et al., 2017), exactly as docs/domain.md section 9 fixes it.
 *
 * <p>
 * {@code TRACK_JOB} (Algorithm 3) runs for every job that ran to completion: {@code deadlineCPUs = compTime /
 * deadline}, {@code minReqRate = deadlineCPUs / maxCPUs}, {@code MinCPUFrac}/{@code MaxCPUFrac} over all rates,
 * {@code LastCPUFrac = numCPUsAllocd / maxCPUs}, {@code LastSuccess}, error {@code minReqRate - LastCPUFrac}. The
 * fraction (Algorithm 4) is the mean of {@code LastCPUFrac} and {@code MinCPUFrac} after a met deadline or
 * {@code MaxCPUFrac} after a miss; the smoothed mean of the errors is added and the result clamped into
 * {@code [MinCPUFrac, 1]} (Algorithm 5). A queued job then needs {@code reqCpus = max(ceil(fraction * deadline / TTD
 * * maxCPUs), 1)} (Algorithm 6 lines 21-30, TTD = deadline minus time queued). During bootstrap (fewer than
 * {@link JusticeConfig#bootstrapCompletions()} completions) {@code reqCpus = maxCPUs} and a job that does not fit gets
 * the CPUs that are free. Drops, priority and all-or-nothing offers: see {@link AdmissionQueue}. Running jobs past their
 * deadline with more tasks than {@link JusticeConfig#killAboveTasks()} are killed; kills and drops feed no statistics;
 * a running job's CPUs never change.
 *
 * <p>
 * Decision where the papers are silent: a queued job whose TTD reaches 0 is dropped during bootstrap too. Cost: O(1)
 * per completion for the statistics; the pass is {@link IndexedAdmissionQueue}'s.
 */
public final class Justice extends StatefulPolicy {

    private final JusticeConfig config;
    private final Statistics statistics;
    private final AdmissionEngine engine;

    public Justice(int capacity, JusticeConfig config) {
        this.config = config;
        this.statistics = new Statistics(capacity, config);
        this.engine = new AdmissionEngine(capacity,
                AdmissionEngine.queue(config.indexed(), statistics, config.priority(), capacity),
                config.killAboveTasks(),
                statistics::track);
    }

    public Justice(int capacity) {
        this(capacity, JusticeConfig.defaults());
    }

    public JusticeConfig config() {
        return config;
    }

    /**
     * The corrected and validated fraction a new job would get now ({@code allocCPUFrac}), or 1 during bootstrap.
     */
    public double allocationFraction() {
        return statistics.bootstrapping() ? 1.0 : statistics.fraction;
    }

    /**
     * What {@code TRACK_JOB} has learnt (Dimopoulos's dissertation (2018) Algorithm 3): MinCPUFrac, MaxCPUFrac and
     * LastCPUFrac over the completed jobs (NaN before the first), and the corrected fraction
     * {@link #allocationFraction()}.
     */
    public record Fractions(double min, double max, double last, double corrected) {
    }

    /** The fractions learnt so far. */
    public Fractions fractions() {
        boolean none = statistics.completed == 0;
        return new Fractions(none ? Double.NaN : statistics.minCpuFrac, none ? Double.NaN : statistics.maxCpuFrac,
                none ? Double.NaN : statistics.lastCpuFrac, allocationFraction());
    }

    /** CPUs a job of {@code job}'s shape needs if admitted at {@code nowMillis}, or more than maxCPUs if infeasible. */
    public long requiredCpus(JobRequest job, long nowMillis) {
        long ttd = job.deadlineAbsMillis() - nowMillis;
        if (ttd <= 0) {
            throw new IllegalArgumentException("job " + job.id() + " has no time left at " + nowMillis + " ms");
        }
        return statistics.requiredCpus(new QueuedJob(job, engine.capacity()), ttd);
    }

    @Override
    AdmissionState state() {
        return engine;
    }

    @Override
    public String name() {
        return "justice";
    }

    @Override
    public AllocationModel allocationModel() {
        return AllocationModel.FIXED;
    }

    /** The state {@code TRACK_JOB} keeps, and the estimate derived from it. */
    private static final class Statistics extends ScaledRequestEstimator {
        private final int capacity;
        private final int bootstrapCompletions;
        private final ErrorSmoothing.Average errors;
        private long completed;
        private double minCpuFrac = Double.POSITIVE_INFINITY;
        private double maxCpuFrac = Double.NEGATIVE_INFINITY;
        private double lastCpuFrac;
        private boolean lastSuccess;
        private double fraction = 1.0;

        Statistics(int capacity, JusticeConfig config) {
            this.capacity = capacity;
            this.bootstrapCompletions = config.bootstrapCompletions();
            this.errors = config.smoothing().newAverage();
        }

        /** Algorithm 3, then Algorithms 4 and 5 once, since their result only changes here. */
        void track(RunningJob job, JobCompletion completion, boolean metDeadline) {
            double deadlineSeconds = job.request().deadlineMillis() / 1000.0;
            double deadlineCpus = completion.compTimeCpuSeconds() / deadlineSeconds;
            int maxCpus = job.request().maxCpus(capacity);
            double minReqRate = deadlineCpus / maxCpus;
            minCpuFrac = Math.min(minCpuFrac, minReqRate);
            maxCpuFrac = Math.max(maxCpuFrac, minReqRate);
            lastCpuFrac = (double) job.cpus() / maxCpus;
            lastSuccess = metDeadline;
            errors.add(minReqRate - lastCpuFrac);
            completed++;
            double calculated = (lastCpuFrac + (lastSuccess ? minCpuFrac : maxCpuFrac)) / 2;
            double corrected = calculated + errors.value();
            if (corrected < minCpuFrac) {
                corrected = minCpuFrac;
            } else if (corrected > 1) {
                corrected = 1;
            }
            fraction = corrected;
        }

        @Override
        public boolean bootstrapping() {
            return completed < bootstrapCompletions;
        }

        @Override
        public double fraction() {
            return fraction;
        }
    }
}
