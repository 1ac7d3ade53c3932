package io.fairledger.core.replay;

import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.temporal.IsoFields;
import java.time.temporal.TemporalAdjusters;
import java.time.zone.ZoneOffsetTransition;
import java.util.Set;

import io.fairledger.core.chargeback.Period;

/**
 * Calendar periods in a time zone: months ({@code P1M}), ISO weeks from Monday ({@code P1W}), days ({@code P1D}) or
 * {@code n} hours of the local clock ({@code PTnH}, {@code n} dividing 24), each starting at a local time (the first of
 * the month, a Monday, midnight, a multiple of {@code n} o'clock), so they follow daylight saving: a Berlin day is 23 or
 * 25 hours long twice a year, and its March 31 days less an hour. A local start the clock skips starts where the clock
 * shows it or a later time first (the end of the gap); a local start the clock shows twice starts at the first. Two
 * starts at the same instant make no period between them. The period holding {@code startMs} (the registration)
 * starts there, short, unless {@code startMs} is a start already.
 *
 * <p>
 * Period ids name the local start: {@code 2026-03}, {@code 2026-W14} (the ISO week-based year), {@code 2026-03-29},
 * {@code 2026-03-29T06}.
 *
 * @param zone
 *            the time zone of the local clock
 * @param length
 *            {@code P1M}, {@code P1W}, {@code P1D} or {@code PTnH} ({@link #lengthProblem})
 * @param startMs
 *            where the schedule starts, epoch millis: the first period is cut there
 */
public record CalendarSchedule(ZoneId zone, String length, long startMs) implements Schedule {

    /** The hours a {@code PTnH} period may last: the divisors of 24, so that each local day holds whole periods. */
    public static final Set<Integer> HOURS = Set.of(1, 2, 3, 4, 6, 8, 12, 24);

    private static final long MONTH_MS = 31_556_952_000L / 12;
    private static final long HOUR_MS = 3_600_000L;

    public CalendarSchedule {
        String problem = lengthProblem(length);
        if (problem != null) {
            throw new IllegalArgumentException(problem + ", got '" + length + "'");
        }
        if (length.equals("PT24H")) {
            length = "P1D";
        }
    }

    /**
     * What is wrong with {@code length} as the length of calendar periods; null when it is {@code P1M}, {@code P1W},
     * {@code P1D} or {@code PTnH} with {@code n} dividing 24.
     */
    public static String lengthProblem(String length) {
        if (length == null) {
            return "a calendar length is required: P1M, P1W, P1D or PTnH with n dividing 24";
        }
        if (length.equals("P1M") || length.equals("P1W") || length.equals("P1D")) {
            return null;
        }
        if (length.matches("PT[1-9][0-9]?H")
                && HOURS.contains(Integer.parseInt(length.substring(2, length.length() - 1)))) {
            return null;
        }
        return "with a zone the length must be P1M (months), P1W (ISO weeks from Monday), P1D (days) or PTnH with n "
                + "dividing 24 (1, 2, 3, 4, 6, 8, 12 or 24 hours of the local clock)";
    }

    /**
     * The zone named {@code id}: a region of the tz database ({@code Europe/Berlin}) or a fixed offset ({@code UTC},
     * {@code +05:30}, {@code UTC+14}).
     *
     * @throws IllegalArgumentException
     *             naming the id when the JDK knows no such zone
     */
    public static ZoneId zone(String id) {
        try {
            return ZoneId.of(id);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("unknown time zone '" + id + "': a tz database region such as "
                    + "Europe/Berlin, or an offset such as UTC or +05:30");
        }
    }

    @Override
    public Period periodOf(long t) {
        Period whole = wholeOf(t);
        return t >= startMs && whole.start() < startMs ? new Period(whole.id(), startMs, whole.end()) : whole;
    }

    @Override
    public Period wholeOf(long t) {
        LocalDateTime slot = floor(LocalDateTime.ofInstant(Instant.ofEpochMilli(t), zone));
        while (at(slot) > t) {
            slot = step(slot, -1);
        }
        LocalDateTime next = step(slot, 1);
        while (at(next) <= t) {
            slot = next;
            next = step(slot, 1);
        }
        return new Period(id(slot), at(slot), at(next));
    }

    @Override
    public long nominalMs() {
        return switch (length) {
            case "P1M" -> MONTH_MS;
            case "P1W" -> 7 * 24 * HOUR_MS;
            case "P1D" -> 24 * HOUR_MS;
            default -> hours() * HOUR_MS;
        };
    }

    private int hours() {
        return length.equals("P1D") ? 24 : Integer.parseInt(length.substring(2, length.length() - 1));
    }

    /** The local start at or before {@code local}. */
    private LocalDateTime floor(LocalDateTime local) {
        return switch (length) {
            case "P1M" -> local.toLocalDate().withDayOfMonth(1).atStartOfDay();
            case "P1W" -> local.toLocalDate().with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY)).atStartOfDay();
            default -> local.toLocalDate().atTime(LocalTime.of(local.getHour() / hours() * hours(), 0));
        };
    }

    /** The local start {@code n} starts after {@code slot} (before it when negative). */
    private LocalDateTime step(LocalDateTime slot, int n) {
        return switch (length) {
            case "P1M" -> slot.plusMonths(n);
            case "P1W" -> slot.plusWeeks(n);
            default -> slot.plusHours((long) n * hours());
        };
    }

    private String id(LocalDateTime slot) {
        return switch (length) {
            case "P1M" -> YearMonth.from(slot).toString();
            case "P1W" -> slot.get(IsoFields.WEEK_BASED_YEAR) + "-W"
                    + String.format("%02d", slot.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR));
            case "P1D" -> slot.toLocalDate().toString();
            default -> slot.toLocalDate() + "T" + String.format("%02d", slot.getHour());
        };
    }

    /**
     * The first instant the local clock shows {@code local} or a later time: in a gap, its end; shown twice, the first.
     * Saturates at the ends of epoch millis.
     */
    private long at(LocalDateTime local) {
        ZoneOffsetTransition transition = zone.getRules().getTransition(local);
        Instant instant = transition != null && transition.isGap()
                ? transition.getInstant()
                : local.atZone(zone).toInstant();
        if (instant.isAfter(Instant.ofEpochMilli(Long.MAX_VALUE))) {
            return Long.MAX_VALUE;
        }
        if (instant.isBefore(Instant.ofEpochMilli(Long.MIN_VALUE))) {
            return Long.MIN_VALUE;
        }
        return instant.toEpochMilli();
    }
}
