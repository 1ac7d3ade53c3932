package io.fairledger.core.replay;

import io.fairledger.core.chargeback.Period;

/**
 * Fixed-length accounting periods from an origin, named by their index (decision: calendar months are cut by the
 * caller, which passes their boundaries as separate replays or a custom schedule later; fixed lengths keep replay
 * self-contained).
 *
 * @param originMs
 *            start of period 0, epoch millis
 * @param lengthMs
 *            length of every period, > 0
 * @param prefix
 *            period ids are {@code prefix + index}
 */
public record PeriodSchedule(long originMs, long lengthMs, String prefix) {

    public PeriodSchedule {
        if (lengthMs <= 0) {
            throw new IllegalArgumentException("period length must be > 0 ms, got " + lengthMs);
        }
        prefix = prefix == null ? "" : prefix;
    }

    /** The period containing {@code t}. */
    public Period periodOf(long t) {
        long index = Math.floorDiv(t - originMs, lengthMs);
        long start = originMs + index * lengthMs;
        return new Period(prefix + index, start, start + lengthMs);
    }
}
