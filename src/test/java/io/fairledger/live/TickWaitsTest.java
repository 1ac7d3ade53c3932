package io.fairledger.live;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

/** Read-your-writes counts only a tick that started after the wait began, and only if it served the cluster. */
class TickWaitsTest {

    private static final Duration LONG = Duration.ofMinutes(5);

    /** Starts a waiter on {@code waits} and returns once it has asked for a tick. */
    private static CompletableFuture<Boolean> waiter(TickWaits waits, String cluster) {
        CompletableFuture<Boolean> result = CompletableFuture.supplyAsync(() -> {
            try {
                return waits.await(cluster, LONG);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        while (!waits.asked()) {
            Thread.onSpinWait();
        }
        return result;
    }

    @Test
    void aTickStartedAfterTheWaitThatServedTheClusterEndsIt() {
        TickWaits waits = new TickWaits();
        CompletableFuture<Boolean> served = waiter(waits, "c");
        long tick = waits.start();
        assertFalse(waits.asked(), "the tick took the request");
        waits.served("c", tick);
        waits.finish(tick);
        assertTrue(served.join());
    }

    @Test
    void aTickRunningWhenTheWaitBeganDoesNotCount() {
        TickWaits waits = new TickWaits();
        long running = waits.start();
        CompletableFuture<Boolean> served = waiter(waits, "c");
        // it may have read the configuration before the change: served, but too early
        waits.served("c", running);
        waits.finish(running);
        assertFalse(served.isDone());
        long next = waits.start();
        waits.served("c", next);
        waits.finish(next);
        assertTrue(served.join());
    }

    @Test
    void aTickThatDidNotServeTheClusterEndsTheWaitUnserved() {
        TickWaits waits = new TickWaits();
        CompletableFuture<Boolean> served = waiter(waits, "c");
        long tick = waits.start();
        waits.served("other", tick);
        waits.finish(tick);
        assertFalse(served.join());
    }

    @Test
    void noTickWithinTheBoundIsUnserved() throws InterruptedException {
        assertFalse(new TickWaits().await("c", Duration.ZERO));
    }
}
