package io.fairledger.tenancy;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import com.fasterxml.jackson.annotation.JsonValue;

import io.fairledger.core.replay.CalendarSchedule;
import io.fairledger.core.replay.PeriodSchedule;
import io.fairledger.core.replay.PiecewiseSchedule;
import io.fairledger.core.replay.Schedule;

/**
 * Where a cluster's statements are cut, the {@code period} member of the ledger settings: a fixed {@code length}
 * from an {@code origin} (default: the registration), as always, or with a {@code zone} calendar periods of that
 * length in it ({@link CalendarSchedule}: {@code P1M}, {@code P1W}, {@code P1D}, {@code PTnH} with n dividing 24), whose
 * first period runs from the registration to the first boundary after it. {@code origin} is for fixed lengths only:
 * a calendar's boundaries are its own. {@code earlier} lists the schedules in force before this one, each with the
 * instant {@code until} it ended (the server keeps it: {@link #after}); empty, this schedule holds from the registration.
 *
 * @param origin  start of a fixed-length period (fixed lengths only)
 * @param length  an ISO-8601 duration ({@code PT1H}, {@code P1D}; a number is seconds, as earlier versions stored it)
 *                or, with a zone, {@code P1M} or {@code P1W}; default {@code P1D}
 * @param zone    a time zone id ({@code Europe/Berlin}, {@code UTC}, {@code +05:30}); none: fixed lengths
 * @param earlier the schedules before this one, oldest first, each with {@code until}
 * @param until   in an entry of {@code earlier}: where the next schedule took over
 */
public record PeriodSettings(Instant origin, String length, String zone, List<PeriodSettings> earlier,
        Instant until) {

    /** Fixed periods of {@code length} from {@code origin} (null: the registration). */
    public PeriodSettings(Instant origin, Duration length) {
        this(origin, length == null ? null : length.toString(), null, null, null);
    }

    /**
     * As stored and shown: a fixed length in seconds, as this member always was written; a calendar length as text.
     */
    @JsonValue
    Map<String, Object> json() {
        Map<String, Object> out = new LinkedHashMap<>();
        put(out, "origin", origin);
        Duration fixed = zone == null ? fixedLength() : null;
        put(out, "length", fixed == null
                ? length
                : new BigDecimal(fixed.getSeconds()).add(
                        BigDecimal.valueOf(fixed.getNano(), 9)));
        put(out, "zone", zone);
        put(out, "earlier", earlier == null || earlier.isEmpty() ? null : earlier);
        put(out, "until", until);
        return out;
    }

    private static void put(Map<String, Object> out, String name, Object value) {
        if (value != null) {
            out.put(name, value);
        }
    }

    /** A length given as a number of seconds. */
    private static final Pattern SECONDS = Pattern.compile("-?[0-9]{1,15}(\\.[0-9]{1,9})?");

    /**
     * {@code length} as a duration: an ISO-8601 duration or a number of seconds; null when it is none (a calendar
     * length, a mistake) or not given.
     */
    public Duration fixedLength() {
        if (length == null) {
            return null;
        }
        try {
            if (SECONDS.matcher(length).matches()) {
                BigDecimal seconds = new BigDecimal(length);
                return Duration.ofSeconds(seconds.longValue(),
                        seconds.remainder(BigDecimal.ONE).movePointRight(9).longValue());
            }
            return Duration.parse(length);
        } catch (DateTimeParseException | ArithmeticException e) {
            return null;
        }
    }

    /**
     * The calendar length of a zoned schedule as {@link CalendarSchedule} names it: {@code P1M}, {@code P1W} as
     * written, a duration as {@code PTnH} (so {@code P1D}, {@code PT24H} and 86400 are one length); as written when it
     * is neither.
     */
    String calendarLength() {
        String given = length == null ? "P1D" : length;
        if (given.equals("P1M") || given.equals("P1W")) {
            return given;
        }
        Duration d = fixedLength();
        return d != null && !d.isNegative() && d.toSeconds() % 3600 == 0 && d.getNano() == 0
                ? "PT" + d.toHours() + "H"
                : given;
    }

    /** The schedule of this entry alone, starting at {@code fromMs} (a calendar's first period is cut there). */
    Schedule piece(long fromMs, Instant registeredAt) {
        if (zone != null) {
            return new CalendarSchedule(CalendarSchedule.zone(zone), calendarLength(), fromMs);
        }
        Duration fixed = length == null ? Duration.ofDays(1) : fixedLength();
        if (fixed == null) {
            throw new IllegalArgumentException("period.length '" + length + "' is not a duration such as PT1H or P1D; "
                    + "P1M and P1W need a zone");
        }
        return new PeriodSchedule(origin == null ? registeredAt.toEpochMilli() : origin.toEpochMilli(),
                fixed.toMillis(), "");
    }

    /**
     * The periods of {@code settings}' {@code period} (null: daily from the registration): this schedule alone when it
     * has no earlier ones, else the earlier ones each until its {@code until}, then this one.
     */
    static Schedule schedule(PeriodSettings period, Instant registeredAt) {
        PeriodSettings current = period == null ? new PeriodSettings(null, (Duration) null) : period;
        long registration = registeredAt.toEpochMilli();
        if (current.earlier() == null || current.earlier().isEmpty()) {
            return current.piece(registration, registeredAt);
        }
        List<PiecewiseSchedule.Piece> pieces = new ArrayList<>();
        long from = registration;
        for (PeriodSettings e : current.earlier()) {
            pieces.add(new PiecewiseSchedule.Piece(e.piece(from, registeredAt), from));
            from = e.until().toEpochMilli();
        }
        pieces.add(new PiecewiseSchedule.Piece(current.piece(from, registeredAt), from));
        return new PiecewiseSchedule(pieces);
    }

    /** This entry's schedule without its history, to compare two schedules. */
    private PeriodSettings alone() {
        return new PeriodSettings(origin, length, zone, null, null);
    }

    /**
     * The period settings to store when {@code next} (a settings change's, its {@code earlier} ignored: the server
     * keeps it) replaces {@code before} (null: none yet) from {@code effective} (null: from the registration): the
     * schedule in force at {@code effective} goes on until the first boundary of {@code next} at or after it, a
     * schedule that would have started after {@code effective} never starts, and closed periods (ending by
     * {@code effective}) are never cut again.
     */
    static PeriodSettings after(PeriodSettings before, PeriodSettings next, Instant effective, Instant registeredAt) {
        PeriodSettings wanted = (next == null ? new PeriodSettings(null, (Duration) null) : next).alone();
        if (before == null || effective == null || !effective.isAfter(registeredAt)) {
            return next == null ? null : wanted;
        }
        List<PeriodSettings> pieces = new ArrayList<>();
        Instant from = registeredAt;
        for (PeriodSettings e : before.earlier() == null ? List.<PeriodSettings>of() : before.earlier()) {
            if (e.until().isAfter(effective)) {
                break;
            }
            pieces.add(e);
            from = e.until();
        }
        PeriodSettings inForce = pieces.size() == (before.earlier() == null ? 0 : before.earlier().size())
                ? before.alone()
                : before.earlier().get(pieces.size()).alone();
        if (inForce.piece(0, registeredAt).equals(wanted.piece(0, registeredAt))) {
            return new PeriodSettings(inForce.origin, inForce.length, inForce.zone, pieces, null);
        }
        long effectiveMs = effective.toEpochMilli();
        var first = wanted.piece(from.toEpochMilli(), registeredAt).periodOf(effectiveMs);
        Instant switchAt = Instant.ofEpochMilli(first.start() == effectiveMs ? effectiveMs : first.end());
        if (switchAt.isAfter(from)) {
            pieces.add(new PeriodSettings(inForce.origin, inForce.length, inForce.zone, null, switchAt));
        }
        return new PeriodSettings(wanted.origin, wanted.length, wanted.zone, pieces, null);
    }

    /**
     * The period schedule: a fixed length (an ISO-8601 duration from {@link SettingsLimits#SHORTEST_CYCLE} to {@link SettingsLimits#LONGEST_CYCLE})
     * or, with a zone the JDK knows, a calendar length ({@link CalendarSchedule#lengthProblem}) and no origin; each
     * earlier schedule alike, with its {@code until} after the registration and after the one before it.
     */
    static void problems(SettingsLimits.Problems out, PeriodSettings period, Instant registeredAt) {
        if (period == null) {
            return;
        }
        schedule(out, "period.", period);
        if (period.until() != null) {
            out.add("period.until", "belongs to the entries of period.earlier only");
        }
        List<PeriodSettings> earlier = period.earlier() == null ? List.of() : period.earlier();
        Instant previous = registeredAt;
        for (int i = 0; i < earlier.size(); i++) {
            String at = "period.earlier[" + i + "].";
            PeriodSettings e = earlier.get(i);
            if (e == null) {
                out.add("period.earlier[" + i + "]", "is required");
                continue;
            }
            schedule(out, at, e);
            if (e.earlier() != null) {
                out.add(at + "earlier", "belongs to period only");
            }
            if (e.until() == null) {
                out.add(at + "until", "is required: the instant the next schedule took over");
            } else if (previous != null && !e.until().isAfter(previous)) {
                out.add(at + "until", "must be after " + previous + " (the registration or the previous until), got "
                        + e.until());
            } else {
                out.instant(at + "until", e.until(), true);
                previous = e.until();
            }
        }
    }

    private static void schedule(SettingsLimits.Problems out, String at, PeriodSettings period) {
        out.instant(at + "origin", period.origin(), false);
        if (period.zone() == null) {
            Duration length = period.fixedLength();
            if (period.length() != null && length == null) {
                out.add(at + "length", "must be an ISO-8601 duration such as PT1H or P1D (P1M and P1W need a zone), "
                        + "got '" + SettingsLimits.shown(period.length()) + "'");
            }
            out.duration(at + "length", length, SettingsLimits.SHORTEST_CYCLE, SettingsLimits.LONGEST_CYCLE);
            return;
        }
        try {
            CalendarSchedule.zone(period.zone());
        } catch (IllegalArgumentException e) {
            out.add(at + "zone",
                    "unknown time zone '" + SettingsLimits.shown(period.zone()) + "': a tz database region such as "
                            + "Europe/Berlin, or an offset such as UTC or +05:30");
        }
        String problem = CalendarSchedule.lengthProblem(period.calendarLength());
        if (problem != null) {
            out.add(at + "length", problem + ", got '" + SettingsLimits.shown(String.valueOf(period.length())) + "'");
        }
        if (period.origin() != null) {
            out.add(at + "origin", "is for fixed lengths only: with a zone the calendar sets the boundaries and the "
                    + "first period runs from the registration to the first of them");
        }
    }

}
