package io.fairledger.core.jobsim;

import java.util.Arrays;
import java.util.Map;

import io.fairledger.core.stats.JainIndex;

/**
 * Fairness and equality sampled every {@link #SAMPLE_PERIOD_MILLIS} from the first submission (docs/domain.md
 * section 9). At a sample instant the state is the one after every event at or before it. Jobs counted are those queued
 * (holding 0) or running. Fairness: Jain's index over {@code F_i = min(A_i / D_i, 1)},
 * {@code D_i = min(tasks, capacity)}. Equality: jobs grouped by {@code D_i}, Jain's index over {@code A_i} in each
 * class, weighted by class size. Both are averaged over samples with at least one job; with none, both are 1
 * (JainIndex's empty-set convention).
 */
final class AllocationSampler {

    static final long SAMPLE_PERIOD_MILLIS = 60_000;

    /** The current allocation of every queued or running job, in groups of jobs with equal allocation and demand. */
    interface State {
        /** Number of groups (at most the number of jobs queued or running). */
        int groups();

        /**
         * Writes each group's allocation per job, demand {@code D_i} and number of jobs into the arrays (at least
         * {@link #groups()} long), in any order.
         */
        void fill(double[] allocation, int[] demand, int[] count);
    }

    private long nextSampleMillis;
    private boolean started;
    private double fairnessSum;
    private double equalitySum;
    private long samples;
    private double[] allocation = new double[16];
    private int[] demand = new int[16];
    private int[] count = new int[16];
    private int[] classCounts = new int[16];
    private double[] fractions = new double[16];
    private long[] byDemand = new long[16];
    private double[] classValues = new double[16];

    /** Takes every sample strictly before {@code beforeMillis} from the current state. */
    void sampleBefore(long beforeMillis, State state) {
        while (started && nextSampleMillis < beforeMillis) {
            take(state);
            nextSampleMillis += SAMPLE_PERIOD_MILLIS;
        }
    }

    /** Takes every sample at or before {@code untilMillis}. */
    void sampleThrough(long untilMillis, State state) {
        sampleBefore(untilMillis + 1, state);
    }

    /** Map form: job id to allocation, job id to demand. */
    void sampleBefore(long beforeMillis, Map<String, Double> allocations, Map<String, Integer> demands) {
        sampleBefore(beforeMillis, mapState(allocations, demands));
    }

    /** Map form of {@link #sampleThrough(long, State)}. */
    void sampleThrough(long untilMillis, Map<String, Double> allocations, Map<String, Integer> demands) {
        sampleThrough(untilMillis, mapState(allocations, demands));
    }

    private static State mapState(Map<String, Double> allocations, Map<String, Integer> demands) {
        return new State() {
            @Override
            public int groups() {
                return allocations.size();
            }

            @Override
            public void fill(double[] a, int[] d, int[] c) {
                int i = 0;
                for (Map.Entry<String, Double> e : allocations.entrySet()) {
                    a[i] = e.getValue();
                    c[i] = 1;
                    d[i++] = demands.get(e.getKey());
                }
            }
        };
    }

    void start(long firstSubmitMillis) {
        if (!started) {
            started = true;
            nextSampleMillis = firstSubmitMillis;
        }
    }

    double fairness() {
        return samples == 0 ? 1.0 : fairnessSum / samples;
    }

    double equality() {
        return samples == 0 ? 1.0 : equalitySum / samples;
    }

    private void take(State state) {
        int n = state.groups();
        if (n == 0) {
            return;
        }
        if (allocation.length < n) {
            int size = Math.max(n, allocation.length * 2);
            allocation = new double[size];
            demand = new int[size];
            count = new int[size];
            fractions = new double[size];
            byDemand = new long[size];
            classValues = new double[size];
            classCounts = new int[size];
        }
        state.fill(allocation, demand, count);
        long jobs = 0;
        for (int i = 0; i < n; i++) {
            fractions[i] = Math.min(allocation[i] / demand[i], 1.0);
            jobs += count[i];
            // demand in the high bits, index in the low: sorting groups equal demands
            byDemand[i] = ((long) demand[i] << 32) | i;
        }
        if (jobs == 0) {
            return;
        }
        Arrays.sort(byDemand, 0, n);
        double weighted = 0;
        int start = 0;
        while (start < n) {
            int d = (int) (byDemand[start] >>> 32);
            int end = start;
            long members = 0;
            while (end < n && (int) (byDemand[end] >>> 32) == d) {
                int g = (int) byDemand[end];
                classValues[end] = allocation[g];
                classCounts[end] = count[g];
                members += count[g];
                end++;
            }
            if (members > 0) {
                weighted += members * JainIndex.ofRepeated(classValues, classCounts, start, end);
            }
            start = end;
        }
        fairnessSum += JainIndex.ofRepeated(fractions, count, 0, n);
        equalitySum += weighted / jobs;
        samples++;
    }
}
