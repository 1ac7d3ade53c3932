package io.fairledger.ingest;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;

import io.fairledger.config.FairledgerConfig;
import io.fairledger.ingest.registry.ConsumerDecoder;
import io.fairledger.ingest.registry.RegistryClient;
import io.fairledger.observability.MetricNames;

/**
 * Whether PostgreSQL and the schema registry answer this replica, checked every 15 s for the gauges
 * {@value MetricNames#DATABASE_UP} and {@value MetricNames#SCHEMA_REGISTRY_UP} (1 or 0) that the alerts
 * {@code FairledgerDatabaseDown} and {@code FairledgerRegistryDown} watch; the registry's only when
 * {@code fairledger.ingest.registry.url} is set. The PostgreSQL check is also the ingestion health check's
 * ({@link IngestionHealth}). The first check runs before the gauges exist, so none reports a value it has not measured.
 */
@ApplicationScoped
public class DependencyChecks {

    static final String REACHABLE = "reachable";
    private static final int TIMEOUT_SECONDS = 3;

    @Inject
    DataSource database;

    @Inject
    FairledgerConfig config;

    @Inject
    MeterRegistry meters;

    private final AtomicInteger databaseUp = new AtomicInteger();
    private final AtomicInteger registryUp = new AtomicInteger();
    private Optional<RegistryClient> registry;

    @PostConstruct
    void gauges() {
        registry = ConsumerDecoder.client(config.ingest().registry());
        refresh();
        Gauge.builder(MetricNames.DATABASE_UP, databaseUp, AtomicInteger::doubleValue)
                .description("1 when PostgreSQL answered the last check, 0 when it did not").register(meters);
        if (registry.isPresent()) {
            Gauge.builder(MetricNames.SCHEMA_REGISTRY_UP, registryUp, AtomicInteger::doubleValue)
                    .description("1 when the schema registry answered the last check, 0 when it did not")
                    .register(meters);
        }
    }

    @Scheduled(every = "15s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void refresh() {
        databaseUp.set(postgresql().equals(REACHABLE) ? 1 : 0);
        registry.ifPresent(client -> registryUp.set(client.answers() ? 1 : 0));
    }

    /**
     * "reachable", or "unreachable" with the kind of failure: never an address, a user or a driver's message (which
     * would name the database's host).
     */
    String postgresql() {
        try (Connection c = database.getConnection()) {
            return c.isValid(TIMEOUT_SECONDS) ? REACHABLE : "unreachable: no answer within " + TIMEOUT_SECONDS + " s";
        } catch (SQLException e) {
            return "unreachable" + (e.getSQLState() == null ? "" : ": SQLSTATE " + e.getSQLState());
        }
    }
}
