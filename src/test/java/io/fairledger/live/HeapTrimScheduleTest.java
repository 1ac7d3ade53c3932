package io.fairledger.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * When the heap is trimmed: once per burst, after the quiet time, never during a tick, never twice in a minute, never
 * when the heap has not grown since the last trim; and what the trims gave back is reported at most every ten minutes.
 */
class HeapTrimScheduleTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long T0 = 987_654_321L;
    private static final long QUIET = 10 * SECOND;
    private static final long MB = 1L << 20;

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
    void aHeapNoLargerThanTheLastTrimLeftItIsNotCollectedAgain() {
        HeapTrimSchedule schedule = new HeapTrimSchedule(QUIET, T0);
        assertThat(schedule.mayGiveBack(256 * MB)).as("before the first trim").isTrue();
        schedule.trimmed(256 * MB, 256 * MB, 40 * MB, T0);
        assertThat(schedule.mayGiveBack(256 * MB)).as("256 MB committed, as the last trim left it").isFalse();
        assertThat(schedule.mayGiveBack(200 * MB)).as("shrunk by itself since").isFalse();
        assertThat(schedule.mayGiveBack(256 * MB + 1)).as("grown since").isTrue();
    }

    @Test
    void aTrimThatGivesNothingBackIsNotReported() {
        HeapTrimSchedule schedule = new HeapTrimSchedule(QUIET, T0);
        for (int minute = 0; minute < 30; minute++) {
            assertThat(schedule.trimmed(256 * MB, 256 * MB, 40 * MB, T0 + minute * HeapTrimSchedule.MIN_GAP_NS))
                    .as("256 MB committed to 256 MB, minute %d", minute).isNull();
        }
    }

    @Test
    void trimsThatGiveBackAreReportedAtMostEveryTenMinutesSummed() {
        HeapTrimSchedule schedule = new HeapTrimSchedule(QUIET, T0);
        assertThat(schedule.trimmed(400 * MB, 230 * MB, 136 * MB, T0))
                .as("the first one at once").isEqualTo(new HeapTrimSchedule.Report(1, 170 * MB, 230 * MB, 136 * MB));
        long t = T0 + HeapTrimSchedule.MIN_GAP_NS;
        assertThat(schedule.trimmed(300 * MB, 250 * MB, 140 * MB, t)).isNull();
        assertThat(schedule.trimmed(250 * MB, 250 * MB, 140 * MB, t + HeapTrimSchedule.MIN_GAP_NS)).isNull();
        assertThat(schedule.trimmed(280 * MB, 240 * MB, 138 * MB, T0 + HeapTrimSchedule.REPORT_GAP_NS - 1)).isNull();
        assertThat(schedule.trimmed(260 * MB, 250 * MB, 139 * MB, T0 + HeapTrimSchedule.REPORT_GAP_NS))
                .as("three trims gave back 50 + 40 + 10 MB since the first report")
                .isEqualTo(new HeapTrimSchedule.Report(3, 100 * MB, 250 * MB, 139 * MB));
    }

    @Test
    void aQuietTimeOfZeroIsRefused() {
        assertThatThrownBy(() -> new HeapTrimSchedule(0, T0)).hasMessageContaining("fairledger.memory.trim-after");
    }
}
