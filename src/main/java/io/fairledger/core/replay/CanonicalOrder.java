package io.fairledger.core.replay;

import java.util.Comparator;

import io.fairledger.core.ledger.LedgerEvent;

/**
 * The canonical order of events, so that events with the same time give the same result in whatever order they
 * arrived: by time; at one instant capacity changes, then weight changes, then task starts, then task finishes (so a
 * task started and finished in the same millisecond is counted as a zero-length task, not as an unknown finish), then
 * demand changes; then by task id or tenant path (and application, for demand); then by the rest of the event's content.
 */
public final class CanonicalOrder {

    /** The comparator. */
    public static final Comparator<LedgerEvent> COMPARATOR = Comparator.comparingLong(LedgerEvent::at)
            .thenComparingInt(CanonicalOrder::rank).thenComparing(CanonicalOrder::key)
            .thenComparing(LedgerEvent::toString);

    private CanonicalOrder() {
    }

    private static int rank(LedgerEvent e) {
        if (e instanceof LedgerEvent.CapacityChanged) {
            return 0;
        }
        if (e instanceof LedgerEvent.WeightChanged) {
            return 1;
        }
        if (e instanceof LedgerEvent.TaskStarted) {
            return 2;
        }
        if (e instanceof LedgerEvent.TaskFinished) {
            return 3;
        }
        return 4;
    }

    private static String key(LedgerEvent e) {
        if (e instanceof LedgerEvent.TaskStarted s) {
            return s.taskId();
        }
        if (e instanceof LedgerEvent.TaskFinished f) {
            return f.taskId();
        }
        if (e instanceof LedgerEvent.DemandChanged d) {
            return d.tenant() + "\n" + d.applicationId();
        }
        if (e instanceof LedgerEvent.WeightChanged w) {
            return w.tenant().toString();
        }
        return "";
    }
}
