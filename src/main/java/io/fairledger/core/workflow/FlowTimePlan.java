package io.fairledger.core.workflow;

import java.util.List;

/**
 * FlowTime's output: the job windows from decomposition, the slot jobs given to the planner (after the deadline
 * slack) and the plan, whose {@link SlotPlan#leftover()} is the capacity left for ad-hoc jobs per slot.
 */
public record FlowTimePlan(List<JobWindow> windows, List<SlotJob> slotJobs, SlotPlan plan) {

    public FlowTimePlan {
        windows = List.copyOf(windows);
        slotJobs = List.copyOf(slotJobs);
    }

    /** True when the lexicographic plan was infeasible and jobs were placed earliest-deadline-first by workflow. */
    public boolean usedEdf() {
        return "edf".equals(plan.method());
    }
}
