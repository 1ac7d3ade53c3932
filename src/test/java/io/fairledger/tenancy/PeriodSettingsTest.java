package io.fairledger.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import org.junit.jupiter.api.Test;

import io.fairledger.core.chargeback.Period;
import io.fairledger.core.replay.CalendarSchedule;
import io.fairledger.core.replay.PeriodSchedule;
import io.fairledger.core.replay.Schedule;
import io.fairledger.errors.Invalid;

/**
 * The {@code period} member: calendar lengths with a zone, fixed ones without, stored as they always were, refused with
 * the member named, and a change of schedule that keeps the schedule before it until the new one's first boundary.
 */
class PeriodSettingsTest {

    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    private static final String BASE = "{\"registeredAt\":\"2026-03-16T23:00:00Z\","
            + "\"capacity\":{\"vcores\":10,\"memoryMb\":10240,\"gpus\":0}}";

    private static LedgerSettings settings(String period) {
        try {
            return JSON.readValue(BASE.replace("}}", "},\"period\":" + period + "}"), LedgerSettings.class);
        } catch (JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }

    private static Schedule schedule(String period) {
        LedgerSettings s = settings(period);
        s.validate("c");
        return s.toReplayConfig("c", s.registeredAt()).periods();
    }

    private static String refused(String period) {
        try {
            settings(period).validate("c");
        } catch (Invalid e) {
            return e.fields().get(0).field() + ": " + e.fields().get(0).message();
        }
        throw new AssertionError("accepted: " + period);
    }

    @Test
    void aZoneMakesCalendarPeriodsAndNoZoneTheFixedOnesAsBefore() {
        assertThat(schedule("{\"length\":\"P1M\",\"zone\":\"Europe/Berlin\"}")).isEqualTo(
                new CalendarSchedule(CalendarSchedule.zone("Europe/Berlin"), "P1M",
                        Instant.parse("2026-03-16T23:00:00Z").toEpochMilli()));
        assertThat(schedule("{\"length\":\"P1D\",\"zone\":\"Asia/Kolkata\"}"))
                .isEqualTo(schedule("{\"length\":\"PT24H\",\"zone\":\"Asia/Kolkata\"}"));
        assertThat(schedule("{\"length\":\"PT1H\"}")).isEqualTo(
                new PeriodSchedule(Instant.parse("2026-03-16T23:00:00Z").toEpochMilli(), 3_600_000, ""));
        assertThat(schedule("{\"length\":3600.000000000,\"origin\":\"2026-01-01T00:00:00Z\"}")).isEqualTo(
                new PeriodSchedule(Instant.parse("2026-01-01T00:00:00Z").toEpochMilli(), 3_600_000, ""));
    }

    @Test
    void aFixedLengthIsWrittenInSecondsAsAlwaysAndACalendarOneAsText() throws JsonProcessingException {
        assertThat(JSON.writeValueAsString(settings("{\"length\":\"PT1H\"}").period()))
                .isEqualTo("{\"length\":3600.000000000}");
        assertThat(JSON.writeValueAsString(settings("{\"length\":\"P1M\",\"zone\":\"Europe/Berlin\"}").period()))
                .isEqualTo("{\"length\":\"P1M\",\"zone\":\"Europe/Berlin\"}");
        LedgerSettings calendar = settings("{\"length\":\"P1W\",\"zone\":\"UTC\"}");
        assertThat(JSON.readValue(JSON.writeValueAsString(calendar), LedgerSettings.class)).isEqualTo(calendar);
    }

    @Test
    void whatNoCalendarIsIsRefusedNamingTheMember() {
        assertThat(refused("{\"length\":\"P1M\",\"zone\":\"Mars/Olympus\"}")).startsWith("period.zone: unknown");
        assertThat(refused("{\"length\":\"P2M\",\"zone\":\"Europe/Berlin\"}")).startsWith("period.length: with a zone");
        assertThat(refused("{\"length\":\"PT7H\",\"zone\":\"Europe/Berlin\"}")).contains("dividing 24");
        assertThat(refused("{\"length\":\"PT30M\",\"zone\":\"Europe/Berlin\"}")).startsWith("period.length");
        assertThat(refused("{\"length\":\"P1M\"}")).contains("P1M and P1W need a zone");
        assertThat(refused("{\"length\":\"PT30S\"}")).contains("PT1M");
        assertThat(refused("{\"length\":\"P1D\",\"zone\":\"UTC\",\"origin\":\"2026-03-01T00:00:00Z\"}"))
                .startsWith("period.origin: is for fixed lengths only");
        for (String zone : List.of("UTC+14", "Etc/GMT-14", "America/St_Johns", "Australia/Lord_Howe", "+05:30")) {
            assertThat(schedule("{\"length\":\"PT1H\",\"zone\":\"" + zone + "\"}")).as(zone).isNotNull();
        }
    }

    @Test
    void aNewScheduleTakesOverAtItsFirstBoundaryAfterTheChange() {
        LedgerSettings daily = settings("{\"length\":\"P1D\"}");
        LedgerSettings monthly = settings("{\"length\":\"P1M\",\"zone\":\"Europe/Berlin\"}");
        // the open daily period started on 2026-04-10T23:00Z: days go on until Berlin's May begins
        Instant effective = Instant.parse("2026-04-10T23:00:00Z");
        LedgerSettings stored = monthly.replacing("c", daily, effective);
        assertThat(stored.period().earlier()).hasSize(1);
        assertThat(stored.period().earlier().get(0).until()).isEqualTo(Instant.parse("2026-04-30T22:00:00Z"));
        Schedule schedule = stored.toReplayConfig("c", stored.registeredAt()).periods();
        Schedule before = daily.toReplayConfig("c", daily.registeredAt()).periods();
        long effectiveMs = effective.toEpochMilli();
        assertThat(schedule.periodOf(effectiveMs - 1)).isEqualTo(before.periodOf(effectiveMs - 1));
        // the bridging day: 23 of its 24 hours, then May
        Period bridge = schedule.periodOf(Instant.parse("2026-04-30T12:00:00Z").toEpochMilli());
        assertThat(bridge.end()).isEqualTo(Instant.parse("2026-04-30T22:00:00Z").toEpochMilli());
        assertThat(schedule.proration(bridge).partMs()).isEqualTo(23 * 3_600_000L);
        assertThat(schedule.periodOf(bridge.end()).id()).isEqualTo("2026-05");
        // the same settings again change nothing; going back before the switch drops the schedule never started
        assertThat(stored.replacing("c", stored, Instant.parse("2026-04-20T23:00:00Z"))).isEqualTo(stored);
        assertThat(daily.replacing("c", stored, Instant.parse("2026-04-20T23:00:00Z")).period().earlier()).isEmpty();
        // a change from the registration replaces the schedule whole
        assertThat(monthly.replacing("c", daily, null).period().earlier()).isNull();
    }
}
