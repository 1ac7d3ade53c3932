package io.fairledger.core.admission;

import java.util.Map;

/**
 * Baseline fair share ("NoDrop FS", seed 001 section 4.2; the Mesos/YARN default allocator the papers compare against): no admission control, every job starts at once and running jobs share the cluster max-min, each capped at {@code maxCPUs} ({@link MaxMinShares}, DOMAIN.md section 11). It never drops or kills: a late job runs to the end.
 */
public final class BaselineFairShare extends StatefulPolicy {

    private final FairShareAdmission state;

    public BaselineFairShare(int capacity) {
        this.state = new FairShareAdmission(capacity, false);
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
        return "baseline-fs";
    }

    @Override
    public AllocationModel allocationModel() {
        return AllocationModel.FAIR_SHARE;
    }
}
