package io.fairledger.accounting;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Where {@link PeriodCloser} records the source watermarks at the position it closed periods at, so that the next close
 * resumes from there instead of reading every transaction of the cluster again ({@link ClosingSteps}). The server's is
 * the table {@code closing_watermark} ({@link ClosingWatermarkTable}).
 */
public interface RecordedWatermarks {

    /** The watermarks recorded at {@code position}; empty when none were (closed elsewhere, or before V65). */
    Optional<SourceWatermarks> at(long position);

    /** Records the watermarks at {@code position}, where periods were just closed. */
    void record(long position, SourceWatermarks watermarks);

    /** Kept in memory, for the closer of the tests and the benchmarks (one closer object, many closes). */
    static RecordedWatermarks inMemory() {
        Map<Long, SourceWatermarks> recorded = new HashMap<>();
        return new RecordedWatermarks() {
            @Override
            public Optional<SourceWatermarks> at(long position) {
                return Optional.ofNullable(recorded.get(position)).map(SourceWatermarks::copy);
            }

            @Override
            public void record(long position, SourceWatermarks watermarks) {
                recorded.put(position, watermarks.copy());
            }
        };
    }
}
