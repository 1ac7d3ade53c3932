package io.fairledger.core.replay;

/**
 * A replay was asked to close more periods than it may hold ({@link PeriodSchedule#MAX_PERIODS}): its settings cut
 * periods too short for the time they cover. Thrown before the periods are made, so the work refused costs nothing.
 */
public final class TooManyPeriods extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    TooManyPeriods(long asked, long lengthMs) {
        super("the replay would hold " + asked + " closed periods of " + lengthMs + " ms, more than the "
                + PeriodSchedule.MAX_PERIODS + " a ledger holds: choose a longer period or a later registration");
    }
}
