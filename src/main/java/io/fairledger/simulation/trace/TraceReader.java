package io.fairledger.simulation.trace;

import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Reads one trace format into {@link TraceJob}s, streaming: the file is read line by line (or object by object) and
 * only per-job aggregates are kept, never the whole file. Readers of traces without deadlines leave them NaN.
 */
public interface TraceReader {

    /**
     * Passes every job of {@code file} to {@code sink}, in file order (or, for formats aggregated per job, in order
     * of first appearance).
     *
     * @return what was read and what was left out, for the run's report
     * @throws TraceFormatException
     *             for malformed input, naming the line
     */
    ReadStats read(Path file, Consumer<TraceJob> sink) throws IOException, TraceFormatException;

    /**
     * @param records
     *            lines or objects read
     * @param jobs
     *            jobs passed on
     * @param skipped
     *            jobs or records left out, with the reason in {@code note}
     * @param note
     *            what was left out and why, empty when nothing was
     */
    record ReadStats(long records, long jobs, long skipped, String note) {
    }
}
