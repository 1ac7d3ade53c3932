package io.fairledger.simulation;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The one progress bar of the command line ({@code simulate}, {@code replay}, {@code account}): one line on stderr,
 * redrawn at most every 200 ms, with rate and time left: {@code [#####.....]  52% 1,234,567/2,400,000 events
 * 41,152/s ETA 0:00:28}.
 *
 * <p>
 * Drawn only when stderr is a terminal ({@link #stderrIsTerminal()}): a bar of carriage returns is noise in a log file
 * or a pipe. {@code System.console()} is not that test: it looks at stdin and stdout too, and a console can exist while
 * stderr goes to a file. When disabled every call is a no-op and nothing is written.
 */
public final class ProgressBar {

    private static final int WIDTH = 30;
    private static final long REDRAW_NANOS = 200_000_000L;
    private final PrintWriter err;
    private final boolean enabled;
    private final long total;
    private final String unit;
    private final long startNanos = System.nanoTime();
    private final AtomicLong done = new AtomicLong();
    private volatile long lastDrawNanos;

    /** A bar over {@code total} {@code unit}s on {@code err}, drawn only when {@code enabled}. */
    public ProgressBar(PrintWriter err, boolean enabled, long total, String unit) {
        this.err = err;
        this.enabled = enabled && total > 0;
        this.total = total;
        this.unit = unit;
    }

    /** A bar on {@code err}, drawn when the user did not ask for quiet and the process's stderr is a terminal. */
    public static ProgressBar onStderr(PrintWriter err, boolean quiet, long total, String unit) {
        return new ProgressBar(err, !quiet && stderrIsTerminal(), total, unit);
    }

    /**
     * True when file descriptor 2 is a terminal: on Linux, {@code /proc/self/fd/2} links to a {@code /dev/pts/N} or
     * {@code /dev/ttyN} device. Where there is no {@code /proc} (macOS, Windows) it answers false: no bar rather than
     * carriage returns in a log.
     */
    public static boolean stderrIsTerminal() {
        return isTerminal(Path.of("/proc/self/fd/2"));
    }

    /** True when {@code fdLink}, a {@code /proc/self/fd/N} link, names a terminal device. */
    static boolean isTerminal(Path fdLink) {
        try {
            String target = Files.readSymbolicLink(fdLink).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }

    /** Whether anything is drawn. */
    public boolean enabled() {
        return enabled;
    }

    /** Adds {@code n} finished units and redraws if due. */
    public void advance(long n) {
        long now = done.addAndGet(n);
        if (!enabled) {
            return;
        }
        long t = System.nanoTime();
        if (t - lastDrawNanos > REDRAW_NANOS || now >= total) {
            lastDrawNanos = t;
            draw(now, t);
        }
    }

    private synchronized void draw(long now, long nanos) {
        err.print(line(now, total, unit, (nanos - startNanos) / 1e9));
        err.flush();
    }

    /** The bar's text after {@code seconds} with {@code done} of {@code total} finished (a carriage return first). */
    static String line(long done, long total, String unit, double seconds) {
        long shown = Math.min(done, total);
        int filled = (int) (WIDTH * shown / total);
        double rate = seconds > 0 ? done / seconds : 0;
        String eta = rate > 0 ? clock((long) Math.ceil((total - shown) / rate)) : "--:--:--";
        return String.format("\r[%s%s] %3d%% %,d/%,d %s %,.0f/s ETA %s", "#".repeat(filled),
                ".".repeat(WIDTH - filled), 100 * shown / total, done, total, unit, rate, eta);
    }

    private static String clock(long seconds) {
        return String.format("%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60);
    }

    /** Draws the final state and ends the bar's line. */
    public void finish() {
        if (enabled) {
            draw(done.get(), System.nanoTime());
            err.println();
            err.flush();
        }
    }
}
