package io.fairledger.core.workflow;

import java.util.Objects;

/**
 * A deadline job on the planner's time slots: it needs {@code demand} CPU-slots within slots {@code [releaseSlot,
 * endSlot)} (FlowTime (Hu et al., 2018) eq. 2: {@code a_i}, {@code d_i}, {@code s_i}). {@code
 * workflowDeadlineSeconds} orders jobs by workflow for the EDF fallback.
 */
public record SlotJob(String id, String workflowId, int releaseSlot, int endSlot, long demand,
        double workflowDeadlineSeconds) {

    public SlotJob {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(workflowId, "workflowId");
        if (releaseSlot < 0 || endSlot <= releaseSlot) {
            throw new IllegalArgumentException(
                    "job " + id + ": need 0 <= releaseSlot < endSlot, got " + releaseSlot + ", " + endSlot);
        }
        if (demand < 0) {
            throw new IllegalArgumentException("job " + id + ": demand must be >= 0, got " + demand);
        }
    }
}
