package io.fairledger.accounting;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.fairledger.core.replay.PeriodSchedule;
import io.fairledger.errors.Invalid;
import io.fairledger.tenancy.LedgerSettings;
import io.fairledger.tenancy.SettingsLimits;

/**
 * What a what-if may ask, beyond its window ({@code fairledger.what-if.max-window}): instants within the range of the
 * settings ({@link SettingsLimits}), a variant within the ranges of the settings, at most {@link #MAX_PERIODS} periods
 * in the window, and at most {@link PeriodSchedule#MAX_PERIODS} periods from the registration to its end (the replay
 * holds them all). Checked before anything is replayed, so a refused what-if costs nothing.
 */
final class WhatIfLimits {

    /** The most periods a what-if answers: a 92-day window of 15-minute periods is 8,832. */
    static final long MAX_PERIODS = 10_000;

    private WhatIfLimits() {
    }

    /**
     * Checks a what-if of {@code variant} (null: the live settings), run under {@code used}, for the periods ending in
     * {@code (from, until]}. The periods are counted only in a window the caller's own checks accept (after
     * {@code from}, at most {@code maxWindow}), so those keep their answer for the windows they refuse.
     *
     * @throws Invalid
     *             naming each input out of range ({@code from}, {@code until}, {@code settings.period.length}, ...)
     */
    static void check(LedgerSettings variant, LedgerSettings used, Instant from, Instant until, Duration maxWindow) {
        List<Invalid.Field> problems = new ArrayList<>();
        instant(problems, "from", from);
        instant(problems, "until", until);
        if (variant != null) {
            problems.addAll(SettingsLimits.problems(variant, "settings."));
        }
        if (problems.isEmpty() && until.isAfter(from) && Duration.between(from, until).compareTo(maxWindow) <= 0
                && used.registeredAt() != null) {
            Duration length = used.nominalPeriod();
            Instant origin = used.period() == null || used.period().origin() == null
                    ? used.registeredAt()
                    : used.period().origin();
            long inWindow = Duration.between(from, until).dividedBy(length) + 1;
            long fromOrigin = until.isAfter(origin) ? Duration.between(origin, until).dividedBy(length) + 1 : 0;
            if (inWindow > MAX_PERIODS) {
                problems.add(new Invalid.Field("until", "the window holds about " + inWindow + " periods of "
                        + length + ", a what-if answers at most " + MAX_PERIODS + ": ask for a shorter window"));
            } else if (fromOrigin > PeriodSchedule.MAX_PERIODS) {
                problems.add(new Invalid.Field("settings.period.length", "a replay from the registration to " + until
                        + " would hold about " + fromOrigin + " periods of " + length + ", at most "
                        + PeriodSchedule.MAX_PERIODS + " are held: choose a longer period"));
            }
        }
        if (!problems.isEmpty()) {
            throw SettingsLimits.invalid("invalid what-if", problems);
        }
    }

    private static void instant(List<Invalid.Field> problems, String field, Instant at) {
        if (at.isBefore(SettingsLimits.EARLIEST) || !at.isBefore(SettingsLimits.LATEST)) {
            problems.add(new Invalid.Field(field, "must be from " + SettingsLimits.EARLIEST + " and before "
                    + SettingsLimits.LATEST + ", got " + at));
        }
    }
}
