package io.fairledger.standalone;

import java.time.Duration;
import java.util.function.Consumer;

import org.jboss.logging.Logger;

/**
 * Restarts the embedded PostgreSQL when its process dies while the server runs (killed, out of memory), on the same
 * directory and port, so the server's connection pool finds it again and ingestion resumes from the offsets stored
 * with the facts: without it, a standalone server stayed broken until stopped by hand. Restarts are bounded: after
 * {@link #MAX_RESTARTS} within {@link #WINDOW}, or a restart that fails that many times, the process exits with
 * {@link #EXIT_CODE}, so a supervisor (systemd, Docker's restart policy) restarts the whole server.
 */
final class PostgresWatchdog implements Runnable {

    /** Restarts allowed within {@link #WINDOW} before the process gives up. */
    static final int MAX_RESTARTS = 3;
    static final Duration WINDOW = Duration.ofMinutes(10);
    /** How often the process is looked at. */
    static final Duration CHECK_EVERY = Duration.ofSeconds(1);
    /** The exit code when PostgreSQL cannot be kept running: EX_SOFTWARE of sysexits.h. */
    static final int EXIT_CODE = 70;
    private static final Logger LOG = Logger.getLogger(PostgresWatchdog.class);

    /** What the watchdog does to the server it watches; the process's own exit in production. */
    interface Host {
        /** The server now running, or null once the services are stopping. */
        EmbeddedPostgresServer current();

        /** Replaces the server that died with {@code restarted}; false when the services are stopping. */
        boolean replace(EmbeddedPostgresServer dead, EmbeddedPostgresServer restarted);
    }

    private final Host host;
    private final Consumer<Integer> exit;
    private final long[] restartTimes = new long[MAX_RESTARTS];
    private int restarts;

    PostgresWatchdog(Host host, Consumer<Integer> exit) {
        this.host = host;
        this.exit = exit;
    }

    @Override
    public void run() {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                Thread.sleep(CHECK_EVERY.toMillis());
                EmbeddedPostgresServer server = host.current();
                if (server == null) {
                    return;
                }
                if (!server.isRunning() && !restart(server)) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Restarts a dead server; false (after asking for the exit) when it may not or cannot be. */
    boolean restart(EmbeddedPostgresServer dead) {
        long now = System.nanoTime();
        int inWindow = 0;
        for (int i = 0; i < Math.min(restarts, MAX_RESTARTS); i++) {
            if (now - restartTimes[i] < WINDOW.toNanos()) {
                inWindow++;
            }
        }
        if (inWindow >= MAX_RESTARTS) {
            LOG.errorf("Standalone: the embedded PostgreSQL died again after %d restarts within %d minutes; exiting "
                    + "(code %d) for a supervisor to restart the server", MAX_RESTARTS, WINDOW.toMinutes(), EXIT_CODE);
            exit.accept(EXIT_CODE);
            return false;
        }
        LOG.errorf("Standalone: the embedded PostgreSQL (port %d) has died; restarting it", dead.port());
        try {
            EmbeddedPostgresServer restarted = dead.restart();
            restartTimes[restarts % MAX_RESTARTS] = now;
            restarts++;
            if (!host.replace(dead, restarted)) {
                restarted.stop();
                return false;
            }
            LOG.infof("Standalone: the embedded PostgreSQL runs again at %s", restarted.jdbcUrl());
            return true;
        } catch (RuntimeException e) {
            restartTimes[restarts % MAX_RESTARTS] = now;
            restarts++;
            LOG.errorf("Standalone: the embedded PostgreSQL did not restart (%s); trying again", e.getMessage());
            return true;
        }
    }
}
