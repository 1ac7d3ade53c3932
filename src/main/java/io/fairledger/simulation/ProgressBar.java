package io.fairledger.simulation;

import java.io.PrintWriter;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A one-line progress bar on stderr, redrawn at most every 200 ms: {@code [#####.....] 52% 1,234,567/2,400,000 jobs
 * 12.3 s}. Disabled (every call a no-op) when not attached to a terminal or when the user asked for quiet.
 */
public final class ProgressBar {

    private static final int WIDTH = 30;
    private final PrintWriter err;
    private final boolean enabled;
    private final long total;
    private final long startNanos = System.nanoTime();
    private final AtomicLong done = new AtomicLong();
    private volatile long lastDrawNanos;

    public ProgressBar(PrintWriter err, boolean enabled, long total) {
        this.err = err;
        this.enabled = enabled && total > 0;
        this.total = total;
    }

    /** Adds {@code n} finished units and redraws if due. */
    public void advance(long n) {
        long now = done.addAndGet(n);
        if (!enabled) {
            return;
        }
        long t = System.nanoTime();
        if (t - lastDrawNanos > 200_000_000L || now >= total) {
            lastDrawNanos = t;
            draw(now);
        }
    }

    private synchronized void draw(long now) {
        int filled = (int) Math.min(WIDTH, WIDTH * now / total);
        err.printf("\r[%s%s] %3d%% %,d/%,d jobs %.1f s", "#".repeat(filled), ".".repeat(WIDTH - filled),
                100 * now / total, now, total, (System.nanoTime() - startNanos) / 1e9);
        err.flush();
    }

    /** Ends the bar's line. */
    public void finish() {
        if (enabled) {
            draw(done.get());
            err.println();
            err.flush();
        }
    }
}
