package io.fairledger.standalone;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

/**
 * The embedded dependencies of standalone mode: a real PostgreSQL and a real KRaft broker for whatever has no external
 * address, and the loopback-admin trust when no OIDC server is configured. Their addresses reach Quarkus through
 * {@link StandaloneConfigSource}. The data directory is locked for as long as they run, so a second server on it is
 * refused.
 *
 * <p>
 * Shutdown is bounded by {@link #SHUTDOWN_BOUND}: on Ctrl-C or SIGTERM the server is given {@link #APP_STOP_WAIT} to
 * stop, after which {@link #close()} stops the broker (at most {@link EmbeddedKafkaBroker#CLOSE_WAIT}) and then
 * PostgreSQL (at most {@link EmbeddedPostgresServer#STOP_WAIT}). If the server is still busy (requests in flight), a JVM shutdown hook stops the
 * embedded services itself and ends the process, so PostgreSQL never outlives it.
 * <p>
 * While the server runs, a {@link PostgresWatchdog} restarts the embedded PostgreSQL if its process dies, a bounded
 * number of times, then ends the process with a non-zero code for a supervisor to restart it.
 */
public final class StandaloneServices implements AutoCloseable {

    /** How long the server itself gets to stop before the embedded services are stopped regardless. */
    static final Duration APP_STOP_WAIT = Duration.ofSeconds(5);
    /** From the signal to the end of the process, at most: the wait, the broker's stop and PostgreSQL's (15 s). */
    public static final Duration SHUTDOWN_BOUND = APP_STOP_WAIT.plus(EmbeddedKafkaBroker.CLOSE_WAIT)
            .plus(EmbeddedPostgresServer.STOP_WAIT);
    /** The exit code after the shutdown hook had to end the process: 128 + SIGTERM. */
    private static final int TERMINATED = 143;
    private static final Logger LOG = Logger.getLogger(StandaloneServices.class);

    private final DataDirectoryLock lock;
    /** Replaced by the {@link PostgresWatchdog} when it restarts a PostgreSQL that died. */
    private EmbeddedPostgresServer postgres;
    private final EmbeddedKafkaBroker kafka;
    private final CountDownLatch closed = new CountDownLatch(1);
    private boolean stopped;
    private Thread watchdog;

    private StandaloneServices(DataDirectoryLock lock, EmbeddedPostgresServer postgres, EmbeddedKafkaBroker kafka) {
        this.lock = lock;
        this.postgres = postgres;
        this.kafka = kafka;
    }

    /** Starts watching the embedded PostgreSQL, if there is one. */
    private synchronized void watchPostgres() {
        if (postgres == null) {
            return;
        }
        PostgresWatchdog.Host host = new PostgresWatchdog.Host() {
            @Override
            public EmbeddedPostgresServer current() {
                synchronized (StandaloneServices.this) {
                    return stopped ? null : postgres;
                }
            }

            @Override
            public boolean replace(EmbeddedPostgresServer dead, EmbeddedPostgresServer restarted) {
                synchronized (StandaloneServices.this) {
                    if (stopped || postgres != dead) {
                        return false;
                    }
                    postgres = restarted;
                    return true;
                }
            }
        };
        watchdog = new Thread(new PostgresWatchdog(host, System::exit), "fairledger-postgres-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    /**
     * @throws StandaloneStartupException when the data directory is held by a running server, or an embedded service
     *         cannot start
     */
    public static StandaloneServices start(StartupSettings settings, Path dataDir, int postgresPort, int kafkaPort,
            EmbeddedPostgresServer.Durability durability) {
        boolean embedsSomething = settings.jdbcUrl() == null || settings.kafkaBootstrapServers() == null;
        DataDirectoryLock lock = embedsSomething ? DataDirectoryLock.acquire(dataDir) : null;
        EmbeddedPostgresServer postgres = null;
        EmbeddedKafkaBroker kafka = null;
        try {
            if (embedsSomething) {
                StandaloneLedgerKey.provide(dataDir);
            }
            if (settings.jdbcUrl() == null) {
                postgres = EmbeddedPostgresServer.start(dataDir.resolve("postgres"), postgresPort, durability);
                StandaloneConfigSource.put(StartupSettings.JDBC_URL, postgres.jdbcUrl());
                StandaloneConfigSource.put("quarkus.datasource.username", EmbeddedPostgresServer.USER);
                StandaloneConfigSource.put("quarkus.datasource.password", "");
                LOG.infof("Standalone: embedded PostgreSQL at %s, data in %s%s", postgres.jdbcUrl(),
                        dataDir.resolve("postgres").toAbsolutePath(),
                        durability == EmbeddedPostgresServer.Durability.FSYNC
                                ? ""
                                : " (fsync OFF: --unsafe-no-fsync, an OS crash or power loss may lose data)");
            }
            if (settings.kafkaBootstrapServers() == null) {
                kafka = EmbeddedKafkaBroker.start(dataDir.resolve("kafka"), kafkaPort);
                StandaloneConfigSource.put(StartupSettings.KAFKA_BOOTSTRAP, kafka.bootstrapServers());
                LOG.infof("Standalone: embedded Kafka broker at %s, data in %s", kafka.bootstrapServers(),
                        dataDir.resolve("kafka").toAbsolutePath());
            }
        } catch (RuntimeException e) {
            new StandaloneServices(lock, postgres, kafka).close();
            throw e instanceof StandaloneStartupException
                    ? e
                    : new StandaloneStartupException("standalone mode cannot start: " + e.getMessage(), e);
        }
        if (!settings.oidcConfigured()) {
            StandaloneConfigSource.put("quarkus.oidc.tenant-enabled", "false");
            StandaloneConfigSource.put(StartupSettings.TRUST_LOOPBACK, "true");
            LOG.warn("**************************************************************************************");
            LOG.warn("* No OIDC server configured: EVERY caller from this machine (loopback) is trusted as  *");
            LOG.warn("* admin, and the server binds 127.0.0.1 only. Set QUARKUS_OIDC_AUTH_SERVER_URL for a   *");
            LOG.warn("* real deployment (docs/configuration.md).                                             *");
            LOG.warn("**************************************************************************************");
        }
        StandaloneServices services = new StandaloneServices(lock, postgres, kafka);
        services.watchPostgres();
        if (embedsSomething) {
            Runtime.getRuntime().addShutdownHook(new Thread(services::onShutdown, "fairledger-standalone-shutdown"));
        }
        return services;
    }

    /**
     * The JVM is exiting (signal or System.exit). Normally the server stops and {@code serve} closes these services
     * in time; otherwise they are stopped here, and the process ends at once rather than waiting for requests that
     * have no database left.
     */
    private void onShutdown() {
        try {
            if (closed.await(APP_STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        System.err.println("fairledger: the server has not stopped within " + APP_STOP_WAIT.toSeconds()
                + " s (requests in flight?); stopping the embedded services now");
        close();
        System.err.flush();
        Runtime.getRuntime().halt(TERMINATED);
    }

    /**
     * Stops what was started, the broker before PostgreSQL, then releases the data directory; once only, whichever of
     * {@code serve} and the shutdown hook comes first. Reports on stderr because the server's logging may already
     * have shut down.
     */
    @Override
    public synchronized void close() {
        if (stopped) {
            return;
        }
        stopped = true;
        if (watchdog != null) {
            watchdog.interrupt();
        }
        try {
            if (kafka != null) {
                System.err.println(kafka.closeWithin()
                        ? "fairledger: embedded Kafka broker stopped"
                        : "fairledger: embedded Kafka broker did not stop within "
                                + EmbeddedKafkaBroker.CLOSE_WAIT.toSeconds() + " s; it ends with the process");
            }
            if (postgres != null) {
                System.err.println(postgres.stop()
                        ? "fairledger: embedded PostgreSQL stopped"
                        : "fairledger: embedded PostgreSQL did not stop; the next serve on this directory stops it");
            }
        } finally {
            if (lock != null) {
                lock.close();
            }
            closed.countDown();
        }
    }
}
