package io.fairledger.integrations.yarn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventJournalTest {

    @TempDir
    Path dir;

    @Test
    void appendsLinesAndRollsSegmentsAndAReopenedJournalContinuesTheLastOne() throws Exception {
        try (EventJournal journal = new EventJournal(dir, 100, false)) {
            for (int i = 0; i < 5; i++) {
                journal.append("fairledger.yarn.containers", "c1",
                        "{\"n\":" + i + ",\"pad\":\"xxxxxxxxxxxxxxxxxxxx\"}");
            }
            assertThat(journal.currentSegment()).isGreaterThan(1);
        }
        List<Long> segments = EventJournal.segments(dir);
        assertThat(segments.get(0)).isEqualTo(1L);
        long lines = 0;
        for (long s : segments) {
            for (String line : Files.readAllLines(EventJournal.segmentFile(dir, s))) {
                assertThat(line.split("\t")).hasSize(3);
                lines++;
            }
        }
        assertThat(lines).isEqualTo(5);
        try (EventJournal reopened = new EventJournal(dir, 100, false)) {
            assertThat(reopened.currentSegment()).isEqualTo(segments.get(segments.size() - 1));
        }
    }

    @Test
    void refusesWhatWouldBreakTheLineFormat() {
        try (EventJournal journal = new EventJournal(dir, 1 << 20, false)) {
            assertThatThrownBy(() -> journal.append("t", "k", "{\n}")).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> journal.append("t", "k\t", "{}")).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
