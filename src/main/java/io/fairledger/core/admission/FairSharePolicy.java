package io.fairledger.core.admission;

import java.util.Map;

/**
 * The fair-share reference allocators (docs/domain.md section 11): no admission control, running jobs share the cluster
 * max-min ({@link MaxMinShares}); {@link BaselineFairShare} never kills, {@link ReactiveFairShare} kills at the
 * deadline.
 */
public abstract class FairSharePolicy extends StatefulPolicy {

    private final FairShareAdmission state;

    FairSharePolicy(int capacity, boolean killAtDeadline) {
        this.state = new FairShareAdmission(capacity, killAtDeadline);
    }

    /** Current max-min shares of the running jobs, by id. */
    public final Map<String, Double> shares() {
        return state.shares();
    }

    @Override
    final AdmissionState state() {
        return state;
    }

    @Override
    public final AllocationModel allocationModel() {
        return AllocationModel.FAIR_SHARE;
    }
}
