package io.fairledger.ingest;

import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.smallrye.health.api.Wellness;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;

import io.fairledger.kafka.SharedAdmin;

/**
 * The health of ingestion, reported at {@code /q/health} and {@code /q/health/well} but gating neither liveness nor
 * readiness: whether the event consumer runs, whether Kafka and PostgreSQL answer, and what waits to be stored
 * ({@link IngestionBacklog}: {@code lag}, the records of every partition after the stored offsets, and {@code state},
 * {@code stalled} when records have waited for {@code fairledger.ingest.stall-after} while nothing was stored, which
 * makes the check DOWN). While
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
    private static final String REACHABLE = DependencyChecks.REACHABLE;

    @Inject
    EventConsumer consumer;

    @Inject
    DependencyChecks dependencies;

    @Inject
    IngestionBacklog backlog;

    @Inject
    SharedAdmin admin;

    @Override
    public HealthCheckResponse call() {
        Optional<String> stopped = consumer.stoppedUnexpectedly();
        String kafka = kafka();
        String postgresql = dependencies.postgresql();
        HealthCheckResponseBuilder response = HealthCheckResponse.named(NAME)
                .withData("consumer", ConsumerLiveness.describe(stopped))
                .withData("kafka", kafka)
                .withData("postgresql", postgresql);
        boolean stalled = false;
        if (kafka.equals(REACHABLE) && postgresql.equals(REACHABLE)) {
            try {
                IngestionBacklog.State state = backlog.measure();
                stalled = state.stalled();
                response.withData("lag", state.waiting())
                        .withData("state", stalled ? "stalled" : state.waiting() == 0 ? "caught up" : "storing")
                        .withData("unstoredFor", state.sinceStored().toString());
            } catch (Exception e) {
                response.withData("lag", "unknown: " + e.getClass().getSimpleName());
            }
        } else {
            response.withData("lag", "unknown");
        }
        return response.status(stopped.isEmpty() && kafka.equals(REACHABLE) && postgresql.equals(REACHABLE)
                && !stalled).build();
    }

    private String kafka() {
        try {
            admin.get().describeCluster(new DescribeClusterOptions().timeoutMs(TIMEOUT_SECONDS * 1000)).nodes()
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
}
