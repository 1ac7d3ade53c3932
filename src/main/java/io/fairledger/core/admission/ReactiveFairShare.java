package io.fairledger.core.admission;

/**
 * Reactive fair share (Dimopoulos's dissertation (2018) section 4.2): {@link BaselineFairShare} that "reacts" when a
 * job exceeds its deadline by killing it, freeing its share for the others (docs/domain.md sections 9 and 11). No
 * admission control, never drops.
 */
public final class ReactiveFairShare extends FairSharePolicy {

    public ReactiveFairShare(int capacity) {
        super(capacity, true);
    }

    @Override
    public String name() {
        return "reactive-fs";
    }
}
