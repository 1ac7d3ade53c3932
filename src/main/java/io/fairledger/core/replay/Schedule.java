package io.fairledger.core.replay;

import io.fairledger.core.chargeback.Period;
import io.fairledger.core.chargeback.Proration;

/**
 * Where a cluster's statements are cut: periods that tile time, each {@code [start, end)}, named by an id unique in
 * the schedule. Three kinds: fixed lengths from an origin ({@link PeriodSchedule}), calendar periods in a time zone
 * ({@link CalendarSchedule}) and a schedule that changed over time ({@link PiecewiseSchedule}).
 */
public interface Schedule {

    /** The period containing {@code t}: its end is the start of the period containing its end. */
    Period periodOf(long t);

    /**
     * The whole period of the schedule's calendar containing {@code t}, of which {@link #periodOf} is a part: longer
     * only for a period cut short by the registration or by a change of schedule.
     */
    Period wholeOf(long t);

    /** A typical period's length (a month's is a twelfth of a Gregorian year), for estimates and messages. */
    long nominalMs();

    /**
     * How many periods end in {@code (after, through]} ({@code after} a period's end): the periods a replay standing at
     * {@code after} closes to reach {@code through}; exact up to {@link PeriodSchedule#MAX_PERIODS} + 1, never more.
     */
    default long endingBetween(long after, long through) {
        long count = 0;
        long end = after;
        while (count <= PeriodSchedule.MAX_PERIODS && end < Long.MAX_VALUE) {
            end = periodOf(end).end();
            if (end > through) {
                break;
            }
            count++;
        }
        return count;
    }

    /** How much of its whole period {@code period} (one of this schedule's) is; null when it is the whole period. */
    default Proration proration(Period period) {
        Period whole = wholeOf(period.start());
        return whole.lengthMs() == period.lengthMs() ? null : new Proration(period.lengthMs(), whole.lengthMs());
    }
}
