package io.fairledger.integrations.common;

import java.util.function.LongSupplier;

/**
 * How old the grants a bridge holds are, and how long they are valid. fairledger's grants answer says how long its
 * grants hold ({@code intervalSeconds}; its {@code validUntil} is {@code asOf} plus that interval, and {@code asOf} is
 * the time of the cluster's latest event, in the past on a quiet cluster): so the age counts from the last answer
 * that confirmed them (a 200, or a 304 to {@code If-None-Match}), and they are valid for that interval plus one poll
 * interval, the time the next answer takes to come. Before the first answer the age counts from the bridge's start,
 * so a bridge that never gets grants shows a growing age too.
 * <p>
 * Stale grants are reported in the log at most once per {@link #REPORT_EVERY_MILLIS}, never per decision.
 */
public final class GrantsAge {

    /** The least time between two log lines about stale grants. */
    public static final long REPORT_EVERY_MILLIS = 60_000;

    private final LongSupplier clock;
    private final long pollMillis;
    private volatile long confirmedAt;
    private volatile long validityMillis;
    private long reportedAt = Long.MIN_VALUE;

    public GrantsAge(long pollMillis, LongSupplier clock) {
        this.clock = clock;
        this.pollMillis = pollMillis;
        this.confirmedAt = clock.getAsLong();
        this.validityMillis = 2 * pollMillis;
    }

    public GrantsAge(long pollMillis) {
        this(pollMillis, System::currentTimeMillis);
    }

    /** The server answered with grants that hold for {@code intervalMillis} (its {@code intervalSeconds}). */
    public void confirmed(long intervalMillis) {
        validityMillis = intervalMillis + pollMillis;
        confirmedAt = clock.getAsLong();
    }

    /** Milliseconds since the grants were last confirmed (since the start before the first answer). */
    public long ageMillis() {
        return Math.max(0, clock.getAsLong() - confirmedAt);
    }

    /** How long grants are valid after they were confirmed: the server's interval plus one poll interval. */
    public long validityMillis() {
        return validityMillis;
    }

    public boolean stale() {
        return ageMillis() > validityMillis;
    }

    /**
     * Whether a log line about stale grants is due now: true when they are stale and none was due in the last
     * {@link #REPORT_EVERY_MILLIS}.
     */
    public synchronized boolean reportDue() {
        long now = clock.getAsLong();
        if (!stale() || now - reportedAt < REPORT_EVERY_MILLIS && reportedAt != Long.MIN_VALUE) {
            return false;
        }
        reportedAt = now;
        return true;
    }
}
