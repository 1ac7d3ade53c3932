package io.fairledger.live;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Read-your-writes for the live ledgers' ticks ({@link LiveLedgers#awaitServed}): the ticks are numbered from 1 as they
 * start; each records which clusters it served, and a waiter waits for a tick that started after it began waiting,
 * which therefore read every configuration change committed before. A waiter asks for that tick and has a look run
 * at once rather than at the next check interval. Thread-safe.
 */
final class TickWaits {

    private long started;
    private long finished;
    private final Map<String, Long> servedAt = new ConcurrentHashMap<>();
    private volatile boolean asked;
    /** Runs a look now rather than at the next check interval. */
    private final Runnable wake;

    /** Waits whose tick comes at the next look. */
    TickWaits() {
        this(() -> {
        });
    }

    /** Waits that run {@code wake} once they have asked for a tick, so that it comes now. */
    TickWaits(Runnable wake) {
        this.wake = wake;
    }

    /** Whether a waiter asks for a tick now. */
    boolean asked() {
        return asked;
    }

    /** A tick starts: its number. */
    synchronized long start() {
        asked = false;
        return ++started;
    }

    /** Tick {@code number} served {@code clusterId}: its reads answer from the configuration that tick read. */
    void served(String clusterId, long number) {
        servedAt.put(clusterId, number);
    }

    /** Tick {@code number} finished, whether or not it served every cluster. */
    synchronized void finish(long number) {
        finished = number;
        notifyAll();
    }

    /**
     * Waits, at most {@code bound}, until a tick that started after the call has finished; whether that tick, or a
     * later one, served {@code clusterId}.
     */
    boolean await(String clusterId, Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        long target;
        synchronized (this) {
            target = started + 1;
            asked = true;
        }
        wake.run();
        synchronized (this) {
            long left = deadline - System.nanoTime();
            while (finished < target && left > 0) {
                TimeUnit.NANOSECONDS.timedWait(this, left);
                left = deadline - System.nanoTime();
            }
        }
        return servedAt.getOrDefault(clusterId, 0L) >= target;
    }
}
