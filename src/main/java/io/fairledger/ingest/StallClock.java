package io.fairledger.ingest;

import java.time.Duration;
import java.time.Instant;

/**
 * How long ingestion has made no progress while records wait: it progresses when the stored offsets, summed over every
 * partition, move (any replica stored a batch), and nothing is owed while nothing waits. Fed one measurement at a time
 * ({@link IngestionBacklog}).
 */
final class StallClock {

    private long lastStoredSum = -1;
    private Instant lastProgress;

    StallClock(Instant start) {
        this.lastProgress = start;
    }

    /** Takes a measurement at {@code now}; returns how long records have waited without progress (zero if none). */
    synchronized Duration observe(long waiting, long storedSum, Instant now) {
        if (waiting == 0 || storedSum != lastStoredSum) {
            lastProgress = now;
        }
        lastStoredSum = storedSum;
        return Duration.between(lastProgress, now);
    }
}
