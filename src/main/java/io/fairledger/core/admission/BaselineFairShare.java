package io.fairledger.core.admission;

/**
 * Baseline fair share ("NoDrop FS", Dimopoulos's dissertation (2018) section 4.2; the Mesos/YARN default allocator the
 * papers compare against): no admission control, every job starts at once and running jobs share the cluster max-min,
 * each capped at {@code maxCPUs} ({@link MaxMinShares}, docs/domain.md section 11). It never drops or kills: a late job
 * runs to the end.
 */
public final class BaselineFairShare extends FairSharePolicy {

    public BaselineFairShare(int capacity) {
        super(capacity, false);
    }

    @Override
    public String name() {
        return "baseline-fs";
    }
}
