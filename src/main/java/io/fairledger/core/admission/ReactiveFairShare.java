package io.fairledger.core.admission;

import java.util.Map;

/**
 * Reactive fair share (seed 001 section 4.2): {@link BaselineFairShare} that "reacts" when a job exceeds its deadline by killing it, freeing its share for the others (DOMAIN.md sections 9 and 11). No admission control, never drops.
 */
public final class ReactiveFairShare extends StatefulPolicy {

    private final FairShareAdmission state;

    public ReactiveFairShare(int capacity) {
        this.state = new FairShareAdmission(capacity, true);
    }

    /** Current max-min shares of the running jobs, by id. */
    public Map<String, Double> shares() {
        return state.shares();
    }

    @Override
    AdmissionState state() {
        return state;
    }

    @Override
    public String name() {
        return "reactive-fs";
    }

    @Override
    public AllocationModel allocationModel() {
        return AllocationModel.FAIR_SHARE;
    }
}
