package io.fairledger.live;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.quarkus.arc.Arc;
import io.quarkus.arc.ManagedContext;
import org.jboss.logging.Logger;

/**
 * The thread of the live ledgers' looks ({@code fairledger-live}): one look at a time, every check interval once
 * started, and at once when asked (a change waits for its tick). Each look runs with a request context, as the
 * settings' queries need (Hibernate's session); whatever it throws is logged here, as a task that throws is never run
 * again by its executor and the views would stand still.
 */
final class LookThread {

    private static final Logger LOG = Logger.getLogger(LookThread.class);

    private final Runnable look;
    /** The thread, once started; none after a stop. */
    private ScheduledExecutorService looks;
    private boolean stopped;

    /** A thread that will run {@code look}. */
    LookThread(Runnable look) {
        this.look = look;
    }

    /** Starts looking every {@code interval}, the first look at once; nothing when started or stopped already. */
    synchronized void start(Duration interval) {
        if (looks != null || stopped) {
            return;
        }
        looks = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "fairledger-live");
            thread.setDaemon(true);
            return thread;
        });
        looks.scheduleWithFixedDelay(this::lookInRequestContext, 0, interval.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Has a look run now, after the one running if any. */
    synchronized void now() {
        if (looks != null && !stopped) {
            looks.execute(this::lookInRequestContext);
        }
    }

    /** Lets a running look finish (up to 4 s of the server's 5 s to stop) and looks no more. */
    void stop() throws InterruptedException {
        ScheduledExecutorService running;
        synchronized (this) {
            stopped = true;
            running = looks;
        }
        if (running != null) {
            running.shutdown();
            running.awaitTermination(4, TimeUnit.SECONDS);
        }
    }

    private void lookInRequestContext() {
        ManagedContext context = Arc.container().requestContext();
        context.activate();
        try {
            look.run();
        } catch (Throwable e) {
            LOG.errorf(e, "live ledgers: look failed, retried at the next one");
        } finally {
            context.terminate();
        }
    }
}
