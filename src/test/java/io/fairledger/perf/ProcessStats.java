package io.fairledger.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

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
}
