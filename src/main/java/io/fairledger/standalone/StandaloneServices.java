package io.fairledger.standalone;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

/**
 * The embedded dependencies of standalone mode: a real PostgreSQL and a real KRaft broker for whatever has no external
 * address, and the loopback-admin trust when no OIDC server is configured. Their addresses reach Quarkus through
 * {@link StandaloneConfigSource}. On Ctrl-C or SIGTERM the JVM waits until the server has stopped and these have been closed.
 */
public final class StandaloneServices implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(StandaloneServices.class);

    private final EmbeddedPostgresServer postgres;
    private final EmbeddedKafkaBroker kafka;
    private final CountDownLatch closed = new CountDownLatch(1);

    private StandaloneServices(EmbeddedPostgresServer postgres, EmbeddedKafkaBroker kafka) {
        this.postgres = postgres;
        this.kafka = kafka;
    }

    public static StandaloneServices start(StartupSettings settings, Path dataDir, int postgresPort, int kafkaPort) {
        EmbeddedPostgresServer postgres = null;
        EmbeddedKafkaBroker kafka = null;
        if (settings.jdbcUrl() == null) {
            postgres = EmbeddedPostgresServer.start(dataDir.resolve("postgres"), postgresPort);
            StandaloneConfigSource.put(StartupSettings.JDBC_URL, postgres.jdbcUrl());
            StandaloneConfigSource.put("quarkus.datasource.username", EmbeddedPostgresServer.USER);
            StandaloneConfigSource.put("quarkus.datasource.password", "");
            LOG.infof("Standalone: embedded PostgreSQL at %s, data in %s", postgres.jdbcUrl(),
                    dataDir.resolve("postgres").toAbsolutePath());
        }
        if (settings.kafkaBootstrapServers() == null) {
            kafka = EmbeddedKafkaBroker.start(dataDir.resolve("kafka"), kafkaPort);
            StandaloneConfigSource.put(StartupSettings.KAFKA_BOOTSTRAP, kafka.bootstrapServers());
            LOG.infof("Standalone: embedded Kafka broker at %s, data in %s", kafka.bootstrapServers(),
                    dataDir.resolve("kafka").toAbsolutePath());
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
        StandaloneServices services = new StandaloneServices(postgres, kafka);
        Runtime.getRuntime().addShutdownHook(new Thread(services::awaitClose, "fairledger-standalone-shutdown"));
        return services;
    }

    private void awaitClose() {
        try {
            if (!closed.await(60, TimeUnit.SECONDS)) {
                LOG.warn("Standalone: embedded services did not stop within 60 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops what was started; reports on stderr because the server's logging has already shut down. */
    @Override
    public void close() {
        try {
            if (kafka != null) {
                kafka.close();
                System.err.println("fairledger: embedded Kafka broker stopped");
            }
            if (postgres != null) {
                postgres.close();
                System.err.println("fairledger: embedded PostgreSQL stopped");
            }
        } finally {
            closed.countDown();
        }
    }
}
