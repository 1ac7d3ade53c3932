package io.fairledger.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** When the heap is trimmed: once per burst, after the quiet time, never during a tick, never twice in a minute. */
class HeapTrimScheduleTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long T0 = 987_654_321L;
    private static final long QUIET = 10 * SECOND;

    @Test
    void anIdleServerWhereNothingWasStoredIsNotTrimmed() {
        HeapTrimSchedule schedule = new HeapTrimSchedule(QUIET, T0);
        for (long t = T0; t <= T0 + 5 * HeapTrimSchedule.MIN_GAP_NS; t += SECOND) {
            assertThat(schedule.due(0, false, t)).as("nothing stored, %d s on", (t - T0) / SECOND).isFalse();
        }
    }

    @Test
    void aBurstIsTrimmedOnceAfterTheQuietTime() {
        HeapTrimSchedule schedule = new HeapTrimSchedule(QUIET, T0);
        long t = T0;
        for (long stores = 1; stores <= 30; stores++, t += SECOND) {
            assertThat(schedule.due(stores, false, t)).as("still storing").isFalse();
        }
        long lastStoreSeen = t - SECOND;
        for (; t < lastStoreSeen + QUIET; t += SECOND) {
            assertThat(schedule.due(30, false, t)).as("quiet for %d s", (t - lastStoreSeen) / SECOND).isFalse();
        }
        assertThat(schedule.due(30, false, t)).as("quiet for the whole quiet time").isTrue();
        for (long later = t + SECOND; later < t + 10 * HeapTrimSchedule.MIN_GAP_NS; later += SECOND) {
            assertThat(schedule.due(30, false, later)).as("the same burst, already trimmed").isFalse();
        }
    }

    @Test
    void aLongTickIsNotInterrupted() {
        HeapTrimSchedule schedule = new HeapTrimSchedule(QUIET, T0);
        assertThat(schedule.due(1, false, T0)).isFalse();
        // a tick applying the burst runs for 30 s, during which no look counts anything stored
        for (long t = T0 + SECOND; t <= T0 + 30 * SECOND; t += SECOND) {
            assertThat(schedule.due(1, true, t)).as("a tick runs, %d s on", (t - T0) / SECOND).isFalse();
        }
        assertThat(schedule.due(1, false, T0 + 31 * SECOND)).as("quiet for 1 s after the tick").isFalse();
        assertThat(schedule.due(1, false, T0 + 40 * SECOND)).as("quiet for 10 s after the tick").isTrue();
    }

    @Test
    void burstsCloserThanAMinuteAreTrimmedAMinuteApart() {
        HeapTrimSchedule schedule = new HeapTrimSchedule(QUIET, T0);
        assertThat(schedule.due(1, false, T0)).isFalse();
        long first = T0 + QUIET;
        assertThat(schedule.due(1, false, first)).isTrue();
        // a second burst right after: its quiet time is over 12 s after the first trim, a minute not yet
        assertThat(schedule.due(2, false, first + 2 * SECOND)).isFalse();
        assertThat(schedule.due(2, false, first + 12 * SECOND)).isFalse();
        assertThat(schedule.due(2, false, first + HeapTrimSchedule.MIN_GAP_NS - 1)).isFalse();
        assertThat(schedule.due(2, false, first + HeapTrimSchedule.MIN_GAP_NS)).isTrue();
    }

    @Test
    void aStoreRestartsTheQuietTime() {
        HeapTrimSchedule schedule = new HeapTrimSchedule(QUIET, T0);
        assertThat(schedule.due(1, false, T0)).isFalse();
        assertThat(schedule.due(2, false, T0 + QUIET - SECOND)).isFalse();
        assertThat(schedule.due(2, false, T0 + QUIET)).as("quiet for 1 s only").isFalse();
        assertThat(schedule.due(2, false, T0 + 2 * QUIET - SECOND)).isTrue();
    }

    @Test
    void aQuietTimeOfZeroIsRefused() {
        assertThatThrownBy(() -> new HeapTrimSchedule(0, T0)).hasMessageContaining("fairledger.memory.trim-after");
    }
}
