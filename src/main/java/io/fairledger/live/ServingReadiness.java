package io.fairledger.live;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness for serving: UP once the live ledgers have been loaded from the stored facts, and from then on UP
 * whatever happens to Kafka or PostgreSQL. Grants and live views are answered from memory, so during an outage of
 * either a replica still serves resource managers; taking every replica out of the Service then would turn a delay of
 * the books into an outage of scheduling. Ingestion's own health is reported apart ({@code IngestionHealth}, at
 * {@code /q/health/well}).
 */
@Readiness
@ApplicationScoped
public class ServingReadiness implements HealthCheck {

    static final String NAME = "live ledgers";

    @Inject
    LiveLedgers ledgers;

    @Override
    public HealthCheckResponse call() {
        boolean loaded = ledgers.loaded();
        return HealthCheckResponse.named(NAME).status(loaded)
                .withData("clusters", loaded ? ledgers.views().size() : 0)
                .withData("state", loaded ? "serving from memory" : "loading the stored facts").build();
    }
}
