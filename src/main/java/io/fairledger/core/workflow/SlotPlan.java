package io.fairledger.core.workflow;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CPUs per job per slot, the slot loads and what is left for ad-hoc jobs.
 *
 * @param method
 *            {@code lex-min-max} or {@code edf}
 * @param allocation
 *            job id to CPUs per slot (integral)
 * @param capacity
 *            CPUs per slot
 * @param lateJobs
 *            jobs whose demand is not fully placed inside their window (only under EDF)
 */
public record SlotPlan(String method, Map<String, long[]> allocation, long[] capacity, List<String> lateJobs) {

    public SlotPlan {
        allocation = new LinkedHashMap<>(allocation);
        capacity = capacity.clone();
        lateJobs = List.copyOf(lateJobs);
    }

    /** CPUs planned for deadline jobs in each slot. */
    public long[] load() {
        long[] load = new long[capacity.length];
        for (long[] perSlot : allocation.values()) {
            for (int t = 0; t < load.length; t++) {
                load[t] += perSlot[t];
            }
        }
        return load;
    }

    /** Capacity left in each slot for ad-hoc jobs. */
    public long[] leftover() {
        long[] load = load();
        long[] left = new long[capacity.length];
        for (int t = 0; t < left.length; t++) {
            left[t] = capacity[t] - load[t];
        }
        return left;
    }

    /** Normalised loads {@code z_t / C_t} sorted from highest to lowest: the vector FlowTime minimises (eq. 1). */
    public double[] sortedNormalisedLoads() {
        long[] load = load();
        double[] levels = new double[load.length];
        for (int t = 0; t < levels.length; t++) {
            levels[t] = capacity[t] == 0 ? 0 : (double) load[t] / capacity[t];
        }
        Arrays.sort(levels);
        for (int i = 0, j = levels.length - 1; i < j; i++, j--) {
            double swap = levels[i];
            levels[i] = levels[j];
            levels[j] = swap;
        }
        return levels;
    }
}
