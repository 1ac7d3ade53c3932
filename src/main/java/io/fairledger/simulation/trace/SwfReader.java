package io.fairledger.simulation.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Standard Workload Format (Parallel Workloads Archive), plain or gzipped: {@code ;} header lines, then 18
 * whitespace-separated fields per job ({@code 1 job, 2 submit, 3 wait, 4 runtime, 5 allocated processors, ...,
 * 8 requested processors, ..., 12 user, ..., 15 queue}); -1 means unknown.
 *
 * <p>
 * Conversion: a rigid parallel job. tasks = allocated processors (field 5, else requested, field 8); every task lasts
 * the runtime (field 4); compTime = runtime x tasks; submit field 2; tenant {@code u<user>} when the user is known.
 * Jobs with an unknown runtime or processor count are skipped and reported. No deadlines.
 */
public final class SwfReader implements TraceReader {

    @Override
    public ReadStats read(Path file, Consumer<TraceJob> sink) throws IOException, TraceFormatException {
        long lineNo = 0;
        long emitted = 0;
        long skipped = 0;
        try (BufferedReader in = TraceFiles.lines(file)) {
            String line;
            while ((line = in.readLine()) != null) {
                lineNo++;
                String s = line.strip();
                if (s.isEmpty() || s.startsWith(";")) {
                    continue;
                }
                String[] f = s.split("\\s+");
                if (f.length < 18) {
                    throw new TraceFormatException(file, lineNo, "expected 18 SWF fields, got " + f.length);
                }
                long id = TraceFiles.integer(file, lineNo, f, 0, "job number");
                double submit = TraceFiles.number(file, lineNo, f, 1, "submit time");
                double runtime = TraceFiles.number(file, lineNo, f, 3, "run time");
                long procs = TraceFiles.integer(file, lineNo, f, 4, "allocated processors");
                if (procs < 1) {
                    procs = TraceFiles.integer(file, lineNo, f, 7, "requested processors");
                }
                long user = TraceFiles.integer(file, lineNo, f, 11, "user");
                if (runtime < 0 || procs < 1 || submit < 0 || procs > Integer.MAX_VALUE / 2) {
                    skipped++;
                    continue;
                }
                double[] d = new double[(int) procs];
                java.util.Arrays.fill(d, runtime);
                sink.accept(new TraceJob(Long.toString(id), submit, (int) procs, runtime * procs, Double.NaN,
                        user >= 0 ? "u" + user : "", d));
                emitted++;
            }
        }
        return new ReadStats(lineNo, emitted, skipped,
                skipped + " jobs with unknown runtime, processor count or submit time");
    }
}
