package io.fairledger.core.jobsim;

import io.fairledger.core.stats.JainIndex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Fairness and equality sampled every {@link #SAMPLE_PERIOD_MILLIS} from the first submission (DOMAIN.md section 9).
 * At a sample instant the state is the one after every event at or before it. Jobs counted are those queued (holding
 * 0) or running. Fairness: Jain's index over {@code F_i = min(A_i / D_i, 1)}, {@code D_i = min(tasks, capacity)}.
 * Equality: jobs grouped by {@code D_i}, Jain's index over {@code A_i} in each class, weighted by class size. Both are
 * averaged over samples with at least one job; with none, both are 1 (JainIndex's empty-set convention).
 */
final class AllocationSampler {

    static final long SAMPLE_PERIOD_MILLIS = 60_000;

    private long nextSampleMillis;
    private boolean started;
    private double fairnessSum;
    private double equalitySum;
    private long samples;

    /** Takes every sample strictly before {@code beforeMillis} from the current state. */
    void sampleBefore(long beforeMillis, Map<String, Double> allocation, Map<String, Integer> demand) {
        while (started && nextSampleMillis < beforeMillis) {
            take(allocation, demand);
            nextSampleMillis += SAMPLE_PERIOD_MILLIS;
        }
    }

    /** Takes every sample at or before {@code untilMillis}. */
    void sampleThrough(long untilMillis, Map<String, Double> allocation, Map<String, Integer> demand) {
        sampleBefore(untilMillis + 1, allocation, demand);
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

    private void take(Map<String, Double> allocation, Map<String, Integer> demand) {
        if (allocation.isEmpty()) {
            return;
        }
        double[] fractions = new double[allocation.size()];
        Map<Integer, List<Double>> classes = new HashMap<>();
        int i = 0;
        for (Map.Entry<String, Double> e : allocation.entrySet()) {
            int d = demand.get(e.getKey());
            fractions[i++] = Math.min(e.getValue() / d, 1.0);
            classes.computeIfAbsent(d, k -> new ArrayList<>()).add(e.getValue());
        }
        double weighted = 0;
        for (List<Double> members : classes.values()) {
            weighted += members.size() * JainIndex.of(members.stream().mapToDouble(Double::doubleValue).toArray());
        }
        fairnessSum += JainIndex.of(fractions);
        equalitySum += weighted / allocation.size();
        samples++;
    }
}
