package io.fairledger.core.workflow;

import java.util.List;
import java.util.Optional;

/** Plans deadline jobs over time slots of given capacity. */
public interface SlotPlanner {

    /** A plan meeting every job's demand inside its window, or empty when none exists. */
    Optional<SlotPlan> plan(List<SlotJob> jobs, long[] capacity);
}
