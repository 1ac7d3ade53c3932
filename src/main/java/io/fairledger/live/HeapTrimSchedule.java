package io.fairledger.live;

import java.util.concurrent.TimeUnit;

/**
 * When the server gives back the heap a burst of work grew ({@link QuietHeapTrim}): once something was stored and then
 * nothing for the quiet time, with no tick running, and not within {@link #MIN_GAP_NS} of the last trim; once per burst.
 * Asked at every look with the live ledgers' count of stores seen so far and whether they tick; the quiet time is
 * measured from the look that first saw the latest count with no tick running. Times are {@link System#nanoTime}
 * readings, passed in. Not thread-safe: one caller.
 */
final class HeapTrimSchedule {

    /** Trims are at least this far apart, however bursty the facts. */
    static final long MIN_GAP_NS = TimeUnit.MINUTES.toNanos(1);

    private final long quietNs;
    /** The latest count of stores seen, and when it was last seen new or with a tick running. */
    private long seenStores;
    private long seenNs;
    /** The count of stores at the last trim, and when it ran; as if a gap ago before the first. */
    private long trimmedStores;
    private long trimmedNs;

    HeapTrimSchedule(long quietNs, long nowNs) {
        if (quietNs <= 0) {
            throw new IllegalArgumentException("fairledger.memory.trim-after must be > 0 to trim, got " + quietNs
                    + " ns");
        }
        this.quietNs = quietNs;
        this.seenNs = nowNs;
        this.trimmedNs = nowNs - MIN_GAP_NS;
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
}
