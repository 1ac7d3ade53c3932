package io.fairledger.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

import io.fairledger.testsupport.RealDependency;

/** What Linux says about a process and the machine ({@code /proc}), for the load tools' reports. */
public final class ProcessStats {

    private ProcessStats() {
    }

    /** CPU time a process has used so far (zero when the platform does not say). */
    public static Duration cpu(long pid) {
        return ProcessHandle.of(pid).flatMap(h -> h.info().totalCpuDuration()).orElse(Duration.ZERO);
    }

    /** A line of {@code /proc/PID/status}, such as {@code VmRSS: 612345 kB}, with its spaces folded. */
    public static String status(long pid, String field) throws IOException {
        return Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream().filter(l -> l.startsWith(field + ":"))
                .map(l -> l.replaceAll("\\s+", " ")).findFirst().orElse(field + ": ?");
    }

    /** A {@code kB} field of {@code /proc/PID/status} ({@code VmRSS}, {@code VmHWM}) in MB. */
    public static double megabytes(long pid, String field) throws IOException {
        String[] f = status(pid, field).split(" ");
        if (f.length < 3 || !"kB".equals(f[2])) {
            throw new IllegalStateException("no " + field + " in /proc/" + pid + "/status");
        }
        return Long.parseLong(f[1]) / 1024.0;
    }

    /** {@code /proc/loadavg}, or "unknown". */
    public static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    /**
     * CPU time used so far by a process's threads, in clock ticks, summed by thread name with digits dropped (so the
     * GC's or the compiler's threads count together); empty where {@code /proc} does not exist.
     */
    public static Map<String, Long> threadCpuTicks(long pid) {
        Map<String, Long> out = new TreeMap<>();
        try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replaceAll("\\d+", "#");
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    out.merge(name, Long.parseLong(f[11]) + Long.parseLong(f[12]), Long::sum);
                } catch (IOException | RuntimeException threadGone) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException | RuntimeException noProc) {
            // not Linux
        }
        return out;
    }

    /**
     * Prints where a process's CPU went between two {@link #threadCpuTicks} readings, per event, by thread, largest
     * first (1 tick = 10 ms on Linux, so a thread below 10 ms over the interval does not show).
     */
    public static void printThreadCpu(Map<String, Long> before, Map<String, Long> after, long events) {
        printThreadCpu(before, after, events / 1000.0, "us/event");
    }

    /**
     * {@link #printThreadCpu(Map, Map, long)} per {@code unit}, of which the interval held {@code count}, in
     * milliseconds: ms per {@code unit}.
     */
    public static void printThreadCpu(Map<String, Long> before, Map<String, Long> after, double count, String unit) {
        after.entrySet().stream().map(e -> Map.entry(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0L)))
                .filter(e -> e.getValue() > 0).sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> System.out.printf("  server thread %-16s %5.1f %s%n", e.getKey(),
                        e.getValue() * 10.0 / count, unit));
    }

    /** CPU time used so far by each PostgreSQL process of the benchmark's database (backends and workers). */
    public static Map<Long, Duration> postgresCpu(RealDependency.Running postgres) throws Exception {
        Map<Long, Duration> out = new HashMap<>();
        try (Connection db = CommittedOffsets.connect(postgres);
                Statement st = db.createStatement();
                ResultSet rs = st.executeQuery("SELECT pid FROM pg_stat_activity")) {
            while (rs.next()) {
                out.put(rs.getLong(1), cpu(rs.getLong(1)));
            }
        }
        return out;
    }

    /**
     * PostgreSQL's CPU between two {@link #postgresCpu} readings: the processes seen at the second (a backend that
     * ended in between is missed, one that started counts whole).
     */
    public static Duration postgresCpuSince(Map<Long, Duration> before, Map<Long, Duration> after) {
        Duration sum = Duration.ZERO;
        for (Map.Entry<Long, Duration> e : after.entrySet()) {
            sum = sum.plus(e.getValue().minus(before.getOrDefault(e.getKey(), Duration.ZERO)));
        }
        return sum;
    }
}
