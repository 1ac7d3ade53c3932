package io.fairledger.core.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fairledger.core.chargeback.Period;
import io.fairledger.core.chargeback.Proration;

/** Calendar periods at local boundaries over daylight-saving changes, in odd zones, and their short first period. */
class CalendarScheduleTest {

    private static final long HOUR = 3_600_000L;
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    private static long ms(String instant) {
        return Instant.parse(instant).toEpochMilli();
    }

    private static CalendarSchedule from2000(String zone, String length) {
        return new CalendarSchedule(ZoneId.of(zone), length, ms("2000-01-01T00:00:00Z"));
    }

    @Test
    void aBerlinMarchIs743HoursAndItsOctober745() {
        CalendarSchedule months = from2000("Europe/Berlin", "P1M");
        Period march = months.periodOf(ms("2026-03-15T12:00:00Z"));
        assertThat(march).isEqualTo(new Period("2026-03", ms("2026-02-28T23:00:00Z"), ms("2026-03-31T22:00:00Z")));
        assertThat(march.lengthMs()).isEqualTo(743 * HOUR);
        Period october = months.periodOf(ms("2026-10-01T00:00:00Z"));
        assertThat(october).isEqualTo(new Period("2026-10", ms("2026-09-30T22:00:00Z"), ms("2026-10-31T23:00:00Z")));
        assertThat(october.lengthMs()).isEqualTo(745 * HOUR);
        assertThat(months.periodOf(march.end()).id()).isEqualTo("2026-04");
    }

    @Test
    void aBerlinDayIs23HoursInMarchAnd25InOctober() {
        CalendarSchedule days = from2000("Europe/Berlin", "P1D");
        assertThat(days.periodOf(ms("2026-03-29T10:00:00Z")))
                .isEqualTo(new Period("2026-03-29", ms("2026-03-28T23:00:00Z"), ms("2026-03-29T22:00:00Z")));
        assertThat(days.periodOf(ms("2026-03-29T10:00:00Z")).lengthMs()).isEqualTo(23 * HOUR);
        assertThat(days.periodOf(ms("2026-10-25T10:00:00Z")).lengthMs()).isEqualTo(25 * HOUR);
        assertThat(from2000("Europe/Berlin", "PT24H")).isEqualTo(days);
    }

    @Test
    void localHoursSkipTheHourTheClockSkipsAndLastTwoWhenItRepeats() {
        CalendarSchedule hours = from2000("Europe/Berlin", "PT1H");
        // 02:00 CET is 03:00 CEST: the period of 01:00 ends at 03:00 CEST, one hour later
        assertThat(hours.periodOf(ms("2026-03-29T00:30:00Z")))
                .isEqualTo(new Period("2026-03-29T01", ms("2026-03-29T00:00:00Z"), ms("2026-03-29T01:00:00Z")));
        assertThat(hours.periodOf(ms("2026-03-29T01:00:00Z")).id()).isEqualTo("2026-03-29T03");
        // 02:00 to 03:00 is shown twice in October: one period of two hours
        assertThat(hours.periodOf(ms("2026-10-25T01:30:00Z")))
                .isEqualTo(new Period("2026-10-25T02", ms("2026-10-25T00:00:00Z"), ms("2026-10-25T02:00:00Z")));
        CalendarSchedule sixHours = from2000("Europe/Berlin", "PT6H");
        assertThat(sixHours.periodOf(ms("2026-03-29T05:00:00Z")))
                .isEqualTo(new Period("2026-03-29T06", ms("2026-03-29T04:00:00Z"), ms("2026-03-29T10:00:00Z")));
    }

    @Test
    void kolkataDaysStartAtHalfPastSixteenUtc() {
        CalendarSchedule days = from2000("Asia/Kolkata", "P1D");
        assertThat(days.periodOf(ms("2026-03-29T20:00:00Z")))
                .isEqualTo(new Period("2026-03-30", ms("2026-03-29T18:30:00Z"), ms("2026-03-30T18:30:00Z")));
        assertThat(from2000("+05:30", "P1D").periodOf(ms("2026-03-29T20:00:00Z")))
                .isEqualTo(days.periodOf(ms("2026-03-29T20:00:00Z")));
    }

    @Test
    void isoWeeksStartOnMonday() {
        CalendarSchedule weeks = from2000("Europe/Berlin", "P1W");
        // 2026-04-01 is a Wednesday of ISO week 14, which starts on Monday 2026-03-30
        assertThat(weeks.periodOf(ms("2026-04-01T12:00:00Z")))
                .isEqualTo(new Period("2026-W14", ms("2026-03-29T22:00:00Z"), ms("2026-04-05T22:00:00Z")));
        // 2027-01-01 (a Friday) is in week 53 of 2026
        assertThat(weeks.periodOf(ms("2027-01-01T12:00:00Z")).id()).isEqualTo("2026-W53");
    }

    @Test
    void oddZonesCutWholeDays() {
        assertThat(from2000("UTC+14", "P1D").periodOf(ms("2026-03-29T12:00:00Z")))
                .isEqualTo(new Period("2026-03-30", ms("2026-03-29T10:00:00Z"), ms("2026-03-30T10:00:00Z")));
        assertThat(from2000("Etc/GMT-14", "P1D").periodOf(ms("2026-03-29T12:00:00Z")))
                .isEqualTo(from2000("UTC+14", "P1D").periodOf(ms("2026-03-29T12:00:00Z")));
        // St. John's is UTC-2:30 in summer
        assertThat(from2000("America/St_Johns", "P1D").periodOf(ms("2026-07-01T12:00:00Z")))
                .isEqualTo(new Period("2026-07-01", ms("2026-07-01T02:30:00Z"), ms("2026-07-02T02:30:00Z")));
        // Lord Howe moves its clock by 30 minutes: its first Sunday of October 2026 lasts 23.5 hours
        assertThat(from2000("Australia/Lord_Howe", "P1D").periodOf(ms("2026-10-04T06:00:00Z")).lengthMs())
                .isEqualTo(23 * HOUR + HOUR / 2);
    }

    @Test
    void theFirstPeriodRunsFromTheStartAndIsAPartOfItsMonth() {
        long registration = ms("2026-03-16T23:00:00Z");
        CalendarSchedule months = new CalendarSchedule(BERLIN, "P1M", registration);
        Period first = months.periodOf(registration);
        assertThat(first).isEqualTo(new Period("2026-03", registration, ms("2026-03-31T22:00:00Z")));
        Proration part = months.proration(first);
        assertThat(part).isEqualTo(new Proration(359 * HOUR, 743 * HOUR));
        assertThat(part.of(new BigDecimal("743.00"), 2)).isEqualByComparingTo("359.00");
        assertThat(months.proration(months.periodOf(first.end()))).isNull();
        assertThat(months.endingBetween(first.end(), ms("2026-12-31T23:00:00Z"))).isEqualTo(9);
    }

    @Test
    void onlyCalendarLengthsAreAccepted() {
        for (String bad : List.of("P2M", "PT7H", "PT5H", "PT30M", "P1Y", "PT0H", "PT48H", "PT01H", "p1m")) {
            assertThat(CalendarSchedule.lengthProblem(bad)).as(bad).isNotNull();
        }
        assertThatThrownBy(() -> CalendarSchedule.zone("Mars/Olympus")).hasMessageContaining("Mars/Olympus");
    }
}
