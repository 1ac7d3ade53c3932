package io.fairledger.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

/** The stall clock runs only while records wait and the stored offsets stand still. */
class StallClockTest {

    private static final Instant T0 = Instant.parse("2026-11-20T00:00:00Z");

    @Test
    void recordsWaitingWhileNothingIsStoredRunTheClock() {
        StallClock clock = new StallClock(T0);
        assertThat(clock.observe(0, 100, T0.plusSeconds(10))).isZero();
        assertThat(clock.observe(50, 100, T0.plusSeconds(20))).isEqualTo(Duration.ofSeconds(10));
        assertThat(clock.observe(50, 100, T0.plusSeconds(200))).isEqualTo(Duration.ofSeconds(190));
    }

    @Test
    void storingAnythingOrCatchingUpStopsIt() {
        StallClock clock = new StallClock(T0);
        clock.observe(50, 100, T0.plusSeconds(1));
        assertThat(clock.observe(40, 110, T0.plusSeconds(100))).as("a batch stored").isZero();
        assertThat(clock.observe(40, 110, T0.plusSeconds(130))).isEqualTo(Duration.ofSeconds(30));
        assertThat(clock.observe(0, 110, T0.plusSeconds(140))).as("nothing waits").isZero();
        assertThat(clock.observe(5, 110, T0.plusSeconds(150))).as("the clock starts when records arrive")
                .isEqualTo(Duration.ofSeconds(10));
    }
}
