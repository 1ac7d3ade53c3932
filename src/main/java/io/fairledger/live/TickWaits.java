package io.fairledger.live;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Read-your-writes for the live ledgers' ticks ({@link LiveLedgers#awaitServed}): the ticks are numbered from 1 as they
 * start; each records which clusters it served, and a waiter waits for a tick that started after it began waiting,
 * which therefore read every configuration change committed before. A waiter asks for that tick at the next look
 * rather than at the poll interval. Thread-safe.
 */
final class TickWaits {

    private long started;
    private long finished;
    private final Map<String, Long> servedAt = new ConcurrentHashMap<>();
    private volatile boolean asked;

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
            long left = deadline - System.nanoTime();
            while (finished < target && left > 0) {
                TimeUnit.NANOSECONDS.timedWait(this, left);
                left = deadline - System.nanoTime();
            }
        }
        return servedAt.getOrDefault(clusterId, 0L) >= target;
    }
}
