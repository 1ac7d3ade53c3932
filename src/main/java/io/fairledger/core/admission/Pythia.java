package io.fairledger.core.admission;

/**
 * PYTHIA (Dimopoulos, Krintz, Wolski; Dimopoulos's dissertation (2018) chapter 4, Algorithms 1 and 2): one global
 * {@code CPUFrac}, the largest {@code minReqRate = compTime / deadline / maxCPUs} seen over completed jobs; a queued
 * job needs {@code reqCpus = max(ceil(CPUFrac * deadline / TTD * maxCPUs), 1)}. Bootstrap, drops, priority,
 * all-or-nothing offers and kills as in {@link Justice} (it is Justice's special case, docs/domain.md section 9).
 *
 * <p>
 * Decision: {@code CPUFrac} is capped at 1, as the paper states it always is ("CPUFrac is always less than or equal to
 * 1"); an uncapped value above 1, from a job whose deadline was impossible, would make every later job infeasible.
 */
public final class Pythia extends StatefulPolicy {

    private final Statistics statistics;
    private final AdmissionEngine engine;

    /**
     * @param capacity
     *            cluster CPUs
     * @param config
     *            reuses Justice's kill threshold, priority, bootstrap length and queue choice; smoothing is unused
     */
    public Pythia(int capacity, JusticeConfig config) {
        this.statistics = new Statistics(capacity, config.bootstrapCompletions());
        this.engine = new AdmissionEngine(capacity,
                AdmissionEngine.queue(config.indexed(), statistics, config.priority(), capacity),
                config.killAboveTasks(),
                statistics::track);
    }

    public Pythia(int capacity) {
        this(capacity, JusticeConfig.defaults());
    }

    /** The global {@code CPUFrac}, or -1 before any job completed. */
    public double cpuFraction() {
        return statistics.cpuFrac;
    }

    @Override
    AdmissionState state() {
        return engine;
    }

    @Override
    public String name() {
        return "pythia";
    }

    @Override
    public AllocationModel allocationModel() {
        return AllocationModel.FIXED;
    }

    /** {@code TRACK_JOB} of Algorithm 2 and {@code ESTIMATE_REQ} of Algorithm 1. */
    private static final class Statistics extends ScaledRequestEstimator {
        private final int capacity;
        private final int bootstrapCompletions;
        private long completed;
        private double cpuFrac = -1;

        Statistics(int capacity, int bootstrapCompletions) {
            this.capacity = capacity;
            this.bootstrapCompletions = bootstrapCompletions;
        }

        void track(RunningJob job, JobCompletion completion, boolean metDeadline) {
            double deadlineCpus = completion.compTimeCpuSeconds() / (job.request().deadlineMillis() / 1000.0);
            double minReqRate = Math.min(deadlineCpus / job.request().maxCpus(capacity), 1.0);
            completed++;
            if (minReqRate > cpuFrac) {
                cpuFrac = minReqRate;
            }
        }

        @Override
        public boolean bootstrapping() {
            return completed < bootstrapCompletions;
        }

        @Override
        public double fraction() {
            return cpuFrac;
        }
    }
}
