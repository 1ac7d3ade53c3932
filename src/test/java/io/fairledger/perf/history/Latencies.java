package io.fairledger.perf.history;

import java.time.Duration;
import java.util.Arrays;
import java.util.function.Supplier;

import io.fairledger.perf.ProcessStats;

/** The times of a run of GET requests, the last body's size and the server's CPU time per request meanwhile. */
final class Latencies {

    /** Request times in nanoseconds. */
    private final long[] nanos;
    int bytes;
    double cpuMs;

    private Latencies(long[] nanos) {
        this.nanos = nanos;
    }

    /**
     * Latencies of {@code n} GET requests (after 3 not counted), each read to its end; the last body's size; the CPU
     * time the server process {@code pid} used per request meanwhile (its background work included).
     */
    static Latencies of(int n, Supplier<String> url, long pid) throws Exception {
        for (int i = 0; i < 3; i++) {
            ServerHttp.get(url.get(), 200);
        }
        Latencies out = new Latencies(new long[n]);
        Duration cpu0 = ProcessStats.cpu(pid);
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            out.bytes = ServerHttp.get(url.get(), 200).length;
            out.nanos[i] = System.nanoTime() - t0;
        }
        out.cpuMs = ProcessStats.cpu(pid).minus(cpu0).toNanos() / 1e6 / n;
        return out;
    }

    /** The {@code p} quantile in milliseconds, nearest rank. */
    double percentile(double p) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.max(0, rank - 1)] / 1e6;
    }
}
