package io.fairledger.simulation.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;

/**
 * SWIM Facebook workload samples (tab-separated, no header): {@code jobName, submitSeconds, interJobGapSeconds,
 * mapInputBytes, shuffleBytes, reduceOutputBytes}. The files hold bytes only, so tasks and times come from the
 * {@link Conversion}, a modelling assumption the run reports.
 *
 * <p>
 * Conversion: {@code maps = max(1, ceil(input / mapBytesPerTask))}, each map lasting
 * {@code max(minTaskSeconds, input / maps / bytesPerCpuSecond)}; {@code reduces = ceil(shuffle / reduceBytesPerTask)}
 * (0 when nothing is shuffled), each lasting {@code max(minTaskSeconds, (shuffle + output) / reduces /
 * bytesPerCpuSecond)}; tasks = maps + reduces; compTime the sum. No deadlines; no tenants.
 */
public final class SwimReader implements TraceReader {

    /**
     * How bytes become tasks and seconds.
     *
     * @param mapBytesPerTask
     *            input bytes per map task (SWIM's replay uses the 64 MiB HDFS block)
     * @param reduceBytesPerTask
     *            shuffle bytes per reduce task
     * @param bytesPerCpuSecond
     *            bytes a task processes per second
     * @param minTaskSeconds
     *            shortest task (start-up cost)
     */
    public record Conversion(double mapBytesPerTask, double reduceBytesPerTask, double bytesPerCpuSecond,
            double minTaskSeconds) {

        /** 64 MiB per map, 1 GiB of shuffle per reduce, 4 MiB per CPU-second, at least 1 s per task. */
        public static final Conversion DEFAULT = new Conversion(64.0 * (1 << 20), 1024.0 * (1 << 20),
                4.0 * (1 << 20), 1.0);

        public Conversion {
            if (!(mapBytesPerTask > 0) || !(reduceBytesPerTask > 0) || !(bytesPerCpuSecond > 0)
                    || !(minTaskSeconds >= 0)) {
                throw new IllegalArgumentException("SWIM conversion: bytes per task and per CPU-second must be > 0 "
                        + "and the shortest task >= 0 s");
            }
        }
    }

    private final Conversion conversion;

    public SwimReader(Conversion conversion) {
        this.conversion = conversion;
    }

    @Override
    public ReadStats read(Path file, Consumer<TraceJob> sink) throws IOException, TraceFormatException {
        long lineNo = 0;
        long emitted = 0;
        Set<String> ids = new HashSet<>();
        try (BufferedReader in = TraceFiles.lines(file)) {
            String line;
            while ((line = in.readLine()) != null) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                String[] f = line.strip().split("\t");
                if (f.length < 6) {
                    throw new TraceFormatException(file, lineNo, "expected 6 tab-separated SWIM columns, got "
                            + f.length);
                }
                String id = f[0].strip();
                if (id.isEmpty() || !ids.add(id)) {
                    throw new TraceFormatException(file, lineNo, "job name '" + id + "' is empty or repeated");
                }
                double submit = TraceFiles.number(file, lineNo, f, 1, "submit seconds");
                double input = TraceFiles.number(file, lineNo, f, 3, "map input bytes");
                double shuffle = TraceFiles.number(file, lineNo, f, 4, "shuffle bytes");
                double output = TraceFiles.number(file, lineNo, f, 5, "reduce output bytes");
                if (input < 0 || shuffle < 0 || output < 0) {
                    throw new TraceFormatException(file, lineNo, "byte counts must be >= 0");
                }
                long maps = Math.max(1, (long) Math.ceil(input / conversion.mapBytesPerTask()));
                long reduces = shuffle > 0 ? (long) Math.ceil(shuffle / conversion.reduceBytesPerTask()) : 0;
                if (maps + reduces > 1_000_000) {
                    throw new TraceFormatException(file, lineNo, "more than a million tasks under this conversion");
                }
                double mapSeconds = Math.max(conversion.minTaskSeconds(),
                        input / maps / conversion.bytesPerCpuSecond());
                double reduceSeconds = reduces == 0
                        ? 0
                        : Math.max(conversion.minTaskSeconds(),
                                (shuffle + output) / reduces / conversion.bytesPerCpuSecond());
                double[] d = new double[(int) (maps + reduces)];
                java.util.Arrays.fill(d, 0, (int) maps, mapSeconds);
                java.util.Arrays.fill(d, (int) maps, d.length, reduceSeconds);
                sink.accept(new TraceJob(id, submit, d.length, maps * mapSeconds + reduces * reduceSeconds,
                        Double.NaN, "", d));
                emitted++;
            }
        }
        return new ReadStats(lineNo, emitted, 0, "");
    }
}
