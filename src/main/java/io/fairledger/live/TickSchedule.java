package io.fairledger.live;

import java.util.concurrent.TimeUnit;

/**
 * When the live ledgers tick ({@link LiveLedgers}), asked at every look ({@code fairledger.live.check-interval}):
 * <ul>
 * <li>when something was stored since the last tick, unless a tick that found something stored started less than
 * the poll interval ago: facts that keep coming are applied once per interval, as many at a time as came, and one
 * stored after a quiet interval (a late fact, say) at the next look, not up to an interval later;</li>
 * <li>when nothing was, once per interval (a settings change stored while an older transaction still runs, a ledger to
 * build again after a failed update, the first tick).</li>
 * </ul>
 * Times are {@link System#nanoTime} readings, passed in. Not thread-safe: the ticks run one at a time.
 */
final class TickSchedule {

    private final long intervalNs;
    /** When the last tick started, and the last one that found something stored; as if a day ago before the first. */
    private long lastTickNs;
    private long lastStoredTickNs;

    TickSchedule(long intervalNs, long nowNs) {
        if (intervalNs <= 0) {
            throw new IllegalArgumentException("fairledger.live.poll-interval must be > 0, got " + intervalNs + " ns");
        }
        this.intervalNs = intervalNs;
        this.lastTickNs = nowNs - TimeUnit.DAYS.toNanos(1);
        this.lastStoredTickNs = lastTickNs;
    }

    /**
     * Whether a tick is due at {@code nowNs}, {@code stored} saying whether anything was stored since the last tick;
     * when it is, it counts as started now.
     */
    boolean due(boolean stored, long nowNs) {
        if (nowNs - (stored ? lastStoredTickNs : lastTickNs) < intervalNs) {
            return false;
        }
        if (stored) {
            lastStoredTickNs = nowNs;
        }
        lastTickNs = nowNs;
        return true;
    }
}
