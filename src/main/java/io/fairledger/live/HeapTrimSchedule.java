package io.fairledger.live;

import java.util.concurrent.TimeUnit;

/**
 * When the server gives back the heap a burst of work grew ({@link QuietHeapTrim}): once something was stored and then
 * nothing for the quiet time, with no tick running, and not within {@link #MIN_GAP_NS} of the last trim; once per burst;
 * and only when the committed heap has grown past what the last trim left, since a heap no larger has nothing to give
 * back (an idle server storing a little every minute would otherwise collect every minute for nothing). Asked at every
 * look with the live ledgers' count of stores seen so far and whether they tick; the quiet time is measured from the
 * look that first saw the latest count with no tick running. What the trims give back is reported at most once per
 * {@link #REPORT_GAP_NS}, summed. Times are {@link System#nanoTime} readings, passed in. Not thread-safe: one caller.
 */
final class HeapTrimSchedule {

    /** Trims are at least this far apart, however bursty the facts. */
    static final long MIN_GAP_NS = TimeUnit.MINUTES.toNanos(1);
    /** Log lines about trims are at least this far apart. */
    static final long REPORT_GAP_NS = TimeUnit.MINUTES.toNanos(10);

    /** What the trims since the last report gave back, and the heap the latest one left. */
    record Report(int trims, long givenBackBytes, long committedBytes, long usedBytes) {
    }

    private final long quietNs;
    /** The latest count of stores seen, and when it was last seen new or with a tick running. */
    private long seenStores;
    private long seenNs;
    /** The count of stores at the last trim, and when it ran; as if a gap ago before the first. */
    private long trimmedStores;
    private long trimmedNs;
    /** The committed heap the last trim left; 0 before the first. */
    private long committedAfterTrim;
    /** Trims that gave something back since the last report, how much, and when that report was. */
    private int unreportedTrims;
    private long unreportedBytes;
    private long reportedNs;

    HeapTrimSchedule(long quietNs, long nowNs) {
        if (quietNs <= 0) {
            throw new IllegalArgumentException("fairledger.memory.trim-after must be > 0 to trim, got " + quietNs
                    + " ns");
        }
        this.quietNs = quietNs;
        this.seenNs = nowNs;
        this.trimmedNs = nowNs - MIN_GAP_NS;
        this.reportedNs = nowNs - REPORT_GAP_NS;
    }

    /**
     * Whether to trim at {@code nowNs}, the live ledgers having seen something stored {@code stores} times so far and
     * {@code ticking} saying whether a tick runs now.
     */
    boolean due(long stores, boolean ticking, long nowNs) {
        if (stores != seenStores || ticking) {
            seenStores = stores;
            seenNs = nowNs;
            return false;
        }
        if (stores == trimmedStores || nowNs - seenNs < quietNs || nowNs - trimmedNs < MIN_GAP_NS) {
            return false;
        }
        trimmedStores = stores;
        trimmedNs = nowNs;
        return true;
    }

    /** Whether a trim now, with {@code committedBytes} of heap committed, may give something back. */
    boolean mayGiveBack(long committedBytes) {
        return committedBytes > committedAfterTrim;
    }

    /**
     * Records a trim that took the committed heap from {@code beforeBytes} to {@code afterBytes}; returns what to log,
     * or null: nothing when the trim gave nothing back, and at most one report per {@link #REPORT_GAP_NS}.
     */
    Report trimmed(long beforeBytes, long afterBytes, long usedBytes, long nowNs) {
        committedAfterTrim = afterBytes;
        if (afterBytes >= beforeBytes) {
            return null;
        }
        unreportedTrims++;
        unreportedBytes += beforeBytes - afterBytes;
        if (nowNs - reportedNs < REPORT_GAP_NS) {
            return null;
        }
        Report report = new Report(unreportedTrims, unreportedBytes, afterBytes, usedBytes);
        unreportedTrims = 0;
        unreportedBytes = 0;
        reportedNs = nowNs;
        return report;
    }
}
