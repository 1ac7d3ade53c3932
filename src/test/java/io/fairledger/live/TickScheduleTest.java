package io.fairledger.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** When the live ledgers tick: at once after a quiet interval, at most once per interval while facts keep coming. */
class TickScheduleTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long T0 = 123_456_789L;

    @Test
    void theFirstTickIsDueAtOnce() {
        assertThat(new TickSchedule(SECOND, T0).due(false, T0)).isTrue();
    }

    @Test
    void factsStoredAfterAQuietIntervalAreAppliedAtTheNextLook() {
        TickSchedule schedule = new TickSchedule(SECOND, T0);
        assertThat(schedule.due(false, T0)).isTrue();
        assertThat(schedule.due(false, T0 + SECOND / 2)).as("nothing stored, half an interval on").isFalse();
        assertThat(schedule.due(false, T0 + SECOND)).as("nothing stored, an interval on").isTrue();
        // a late fact stored 0.3 s after that quiet tick: applied at the next look, not 0.7 s later
        assertThat(schedule.due(true, T0 + SECOND + SECOND * 3 / 10)).isTrue();
    }

    @Test
    void factsThatKeepComingAreAppliedOncePerInterval() {
        TickSchedule schedule = new TickSchedule(SECOND, T0);
        assertThat(schedule.due(true, T0)).isTrue();
        for (long t = T0 + SECOND / 10; t < T0 + SECOND; t += SECOND / 10) {
            assertThat(schedule.due(true, t)).as("stored again %d ns after the last tick", t - T0).isFalse();
        }
        assertThat(schedule.due(true, T0 + SECOND)).isTrue();
        assertThat(schedule.due(false, T0 + SECOND + SECOND / 10)).as("nothing stored since").isFalse();
    }

    @Test
    void aTickThatFoundNothingDoesNotHoldBackTheNextStoredFacts() {
        TickSchedule schedule = new TickSchedule(SECOND, T0);
        assertThat(schedule.due(true, T0)).isTrue();
        assertThat(schedule.due(false, T0 + 2 * SECOND)).isTrue();
        assertThat(schedule.due(true, T0 + 2 * SECOND + SECOND / 10))
                .as("stored a tenth after a quiet tick, two intervals after the last tick that applied facts")
                .isTrue();
    }

    @Test
    void refusesAnIntervalThatIsNotPositive() {
        assertThatThrownBy(() -> new TickSchedule(0, T0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fairledger.live.poll-interval");
    }
}
