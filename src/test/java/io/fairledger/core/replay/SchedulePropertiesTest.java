package io.fairledger.core.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

import io.fairledger.core.chargeback.Period;

/** Every schedule tiles time, whatever the zone, length and start: the periods follow each other without gap. */
class SchedulePropertiesTest {

    private static final List<String> ZONES = ZoneId.getAvailableZoneIds().stream().sorted().toList();
    private static final List<String> LENGTHS = List.of("P1M", "P1W", "P1D", "PT1H", "PT2H", "PT3H", "PT4H", "PT6H",
            "PT8H", "PT12H", "PT24H");
    private static final long EARLIEST = Instant.parse("2000-01-01T00:00:00Z").toEpochMilli();
    private static final long LATEST = Instant.parse("2200-01-01T00:00:00Z").toEpochMilli();

    @Property(tries = 400)
    void calendarPeriodsTileTimeInEveryZone(@ForAll @IntRange(min = 0, max = 10_000) int zone,
            @ForAll @IntRange(min = 0, max = 10) int length,
            @ForAll @LongRange(min = 946_684_800_000L, max = 6_900_000_000_000L) long start,
            @ForAll @LongRange(min = 0, max = 40L * 24 * 3_600_000) long probe) {
        CalendarSchedule schedule = new CalendarSchedule(ZoneId.of(ZONES.get(zone % ZONES.size())),
                LENGTHS.get(length), start);
        List<Period> periods = tile(schedule, start, 60);
        assertThat(periods.get(0).start()).isEqualTo(start);
        for (int i = 1; i < periods.size(); i++) {
            assertThat(periods.get(i).id()).as("ids increase").isGreaterThan(periods.get(i - 1).id());
        }
        long t = start + probe % (periods.get(periods.size() - 1).end() - start);
        assertContains(schedule, t);
        for (Period p : periods) {
            assertThat(schedule.wholeOf(p.start()).end()).isEqualTo(p.end());
        }
    }

    @Property(tries = 300)
    void aScheduleThatChangedTilesTimeAndKeepsThePeriodsBeforeEachChange(
            @ForAll @IntRange(min = 0, max = 10_000) int zoneA, @ForAll @IntRange(min = 0, max = 12) int lengthA,
            @ForAll @IntRange(min = 0, max = 10_000) int zoneB, @ForAll @IntRange(min = 0, max = 12) int lengthB,
            @ForAll @LongRange(min = 946_684_800_000L, max = 6_900_000_000_000L) long start,
            @ForAll @LongRange(min = 1, max = 60L * 24 * 3_600_000) long firstSwitch,
            @ForAll @LongRange(min = 1, max = 60L * 24 * 3_600_000) long secondSwitch) {
        Schedule a = piece(zoneA, lengthA, start);
        long switch1 = start + firstSwitch;
        Schedule b = piece(zoneB, lengthB, switch1);
        long switch2 = switch1 + secondSwitch;
        Schedule c = piece(zoneA, lengthB, switch2);
        PiecewiseSchedule changed = new PiecewiseSchedule(List.of(new PiecewiseSchedule.Piece(a, start),
                new PiecewiseSchedule.Piece(b, switch1), new PiecewiseSchedule.Piece(c, switch2)));
        long from = changed.periodOf(start).start();
        List<Period> periods = tile(changed, from, 150);
        Set<String> ids = new HashSet<>();
        for (Period p : periods) {
            assertThat(ids.add(p.id())).as("id " + p.id() + " once").isTrue();
            if (p.end() <= switch1) {
                Period old = a.periodOf(p.start());
                assertThat(p).as("before the change, the old schedule's period, cut at the change")
                        .isEqualTo(new Period(old.id(), old.start(), Math.min(old.end(), switch1)));
            }
            if (p.start() < switch1 && p.end() > switch1 || p.start() < switch2 && p.end() > switch2) {
                throw new AssertionError(p + " straddles a change at " + switch1 + " or " + switch2);
            }
        }
        long last = periods.get(periods.size() - 1).end();
        for (long t = from; t < last; t += (last - from) / 97 + 1) {
            assertContains(changed, t);
        }
    }

    /** A fixed schedule ({@code length} 11 and 12) or a calendar one in a zone. */
    private static Schedule piece(int zone, int length, long start) {
        if (length == 11) {
            return new PeriodSchedule(start - 7_000_000, 86_400_000, "");
        }
        if (length == 12) {
            return new PeriodSchedule(0, 3_600_000 * 5, "");
        }
        return new CalendarSchedule(ZoneId.of(ZONES.get(zone % ZONES.size())), LENGTHS.get(length), start);
    }

    private static List<Period> tile(Schedule schedule, long from, int count) {
        List<Period> out = new ArrayList<>();
        Period p = schedule.periodOf(from);
        for (int i = 0; i < count && p.end() < LATEST; i++) {
            out.add(p);
            Period next = schedule.periodOf(p.end());
            assertThat(next.start()).as("the period after " + p + " starts at its end").isEqualTo(p.end());
            assertThat(next.end()).isGreaterThan(next.start());
            p = next;
        }
        assertThat(out).isNotEmpty();
        assertThat(out.get(0).start()).isGreaterThanOrEqualTo(EARLIEST - 366L * 86_400_000);
        return out;
    }

    private static void assertContains(Schedule schedule, long t) {
        Period p = schedule.periodOf(t);
        assertThat(p.start()).as(p + " holds " + t).isLessThanOrEqualTo(t);
        assertThat(p.end()).as(p + " holds " + t).isGreaterThan(t);
    }
}
