package io.fairledger.core.workflow;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * FlowTime's fallback when no plan meets every deadline (Hu et al., 2018, section VI): earliest deadline first by
 * workflow. Jobs are taken by workflow deadline, then window end, then id; each takes all it can from the earliest
 * slots from its release on, past its window if needed, so the most urgent workflows finish first instead of every
 * workflow finishing most of its jobs. Jobs not fully placed inside their window are reported late. O(n T + n log n).
 */
public final class EdfPlanner implements SlotPlanner {

    /** Always returns a plan; {@link SlotPlan#lateJobs()} lists the jobs it could not place in time. */
    @Override
    public Optional<SlotPlan> plan(List<SlotJob> jobs, long[] capacity) {
        long[] free = capacity.clone();
        List<SlotJob> order = new ArrayList<>(jobs);
        order.sort(Comparator.comparingDouble(SlotJob::workflowDeadlineSeconds).thenComparingInt(SlotJob::endSlot)
                .thenComparing(SlotJob::id));
        Map<String, long[]> allocation = new LinkedHashMap<>();
        for (SlotJob job : jobs) {
            allocation.put(job.id(), new long[capacity.length]);
        }
        List<String> late = new ArrayList<>();
        for (SlotJob job : order) {
            long need = job.demand();
            long[] mine = allocation.get(job.id());
            long inWindow = 0;
            for (int t = job.releaseSlot(); t < capacity.length && need > 0; t++) {
                long take = Math.min(need, free[t]);
                mine[t] += take;
                free[t] -= take;
                need -= take;
                if (t < job.endSlot()) {
                    inWindow += take;
                }
            }
            if (inWindow < job.demand()) {
                late.add(job.id());
            }
        }
        return Optional.of(new SlotPlan("edf", allocation, capacity, late));
    }
}
