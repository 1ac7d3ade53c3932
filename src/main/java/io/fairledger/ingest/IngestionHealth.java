package io.fairledger.ingest;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import javax.sql.DataSource;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;

import io.fairledger.kafka.KafkaClientConfig;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.health.api.Wellness;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The health of ingestion, reported at {@code /q/health} and {@code /q/health/well} but gating neither liveness nor
 * readiness: whether the event consumer runs, whether Kafka and PostgreSQL answer, and the consumer's lag. While
 * Kafka or PostgreSQL is away the server keeps serving what it holds in memory (grants, live views), so readiness
 * stays UP and the Service keeps every replica; this check is what an operator's alert or dashboard watches.
 * <p>
 * Its data never carries an address, a user or a driver's message (which would name the database's host): only
 * "reachable", or "unreachable" with the kind of failure.
 */
@Wellness
@ApplicationScoped
public class IngestionHealth implements HealthCheck {

    static final String NAME = "ingestion";
    private static final int TIMEOUT_SECONDS = 3;
    private static final String REACHABLE = "reachable";

    @Inject
    EventConsumer consumer;

    @Inject
    DataSource database;

    @Inject
    @Identifier("default-kafka-broker")
    Map<String, Object> kafkaConfig;

    private Admin admin;

    @Override
    public HealthCheckResponse call() {
        Optional<String> stopped = consumer.stoppedUnexpectedly();
        String kafka = kafka();
        String postgresql = postgresql();
        return HealthCheckResponse.named(NAME)
                .status(stopped.isEmpty() && kafka.equals(REACHABLE) && postgresql.equals(REACHABLE))
                .withData("consumer", ConsumerLiveness.describe(stopped))
                .withData("kafka", kafka)
                .withData("postgresql", postgresql)
                .withData("lag", consumer.lag()).build();
    }

    private String kafka() {
        try {
            admin().describeCluster(new DescribeClusterOptions().timeoutMs(TIMEOUT_SECONDS * 1000)).nodes()
                    .get(TIMEOUT_SECONDS + 1L, TimeUnit.SECONDS);
            return REACHABLE;
        } catch (ExecutionException e) {
            return "unreachable: " + e.getCause().getClass().getSimpleName();
        } catch (TimeoutException e) {
            return "unreachable: no answer within " + TIMEOUT_SECONDS + " s";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unreachable: interrupted";
        } catch (RuntimeException e) {
            return "unreachable: " + e.getClass().getSimpleName();
        }
    }

    private String postgresql() {
        try (Connection c = database.getConnection()) {
            return c.isValid(TIMEOUT_SECONDS) ? REACHABLE : "unreachable: no answer within " + TIMEOUT_SECONDS + " s";
        } catch (SQLException e) {
            return "unreachable" + (e.getSQLState() == null ? "" : ": SQLSTATE " + e.getSQLState());
        }
    }

    private synchronized Admin admin() {
        if (admin == null) {
            admin = Admin.create(KafkaClientConfig.admin(kafkaConfig));
        }
        return admin;
    }

    @PreDestroy
    synchronized void close() {
        if (admin != null) {
            admin.close();
        }
    }
}
