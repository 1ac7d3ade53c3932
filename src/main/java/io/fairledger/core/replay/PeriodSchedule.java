package io.fairledger.core.replay;

import java.math.BigInteger;

import io.fairledger.core.chargeback.Period;

/**
 * Fixed-length accounting periods from an origin, named by their index: the schedule of settings without a time zone.
 * Its periods are whole (never prorated); the one holding the registration may start before it, as it always did.
 * Calendar periods in a zone are {@link CalendarSchedule}.
 *
 * @param originMs
 *            start of period 0, epoch millis
 * @param lengthMs
 *            length of every period, > 0
 * @param prefix
 *            period ids are {@code prefix + index}
 */
public record PeriodSchedule(long originMs, long lengthMs, String prefix) implements Schedule {

    /**
     * The most closed periods one replay holds: a ledger keeps the statement of every period it has closed, so a
     * schedule of periods far shorter than the time replayed would fill the heap (a one-second period over a year is
     * 31 million statements). 100,000 periods are 11 years of hourly periods, 273 years of daily ones.
     */
    public static final long MAX_PERIODS = 100_000;

    public PeriodSchedule {
        if (lengthMs <= 0) {
            throw new IllegalArgumentException("period length must be > 0 ms, got " + lengthMs);
        }
        prefix = prefix == null ? "" : prefix;
    }

    /** The period containing {@code t}. */
    @Override
    public Period periodOf(long t) {
        long index = Math.floorDiv(t - originMs, lengthMs);
        long start = originMs + index * lengthMs;
        return new Period(prefix + index, start, start + lengthMs);
    }

    /** The period containing {@code t}: fixed-length periods are always whole. */
    @Override
    public Period wholeOf(long t) {
        return periodOf(t);
    }

    @Override
    public long nominalMs() {
        return lengthMs;
    }

    /**
     * How many periods end in {@code (after, through]} ({@code after} a period's end): the periods a replay standing at
     * {@code after} closes to reach {@code through}; 0 when {@code through < after + lengthMs}. Exact for any instants
     * (no overflow).
     */
    @Override
    public long endingBetween(long after, long through) {
        if (through < after) {
            return 0;
        }
        return BigInteger.valueOf(through).subtract(BigInteger.valueOf(after))
                .divide(BigInteger.valueOf(lengthMs)).min(BigInteger.valueOf(Long.MAX_VALUE))
                .longValue();
    }
}
