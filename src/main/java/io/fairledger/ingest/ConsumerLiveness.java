package io.fairledger.ingest;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * Liveness: DOWN once the event consumer's thread is gone while the server still runs (it died of an exception, or
 * ended otherwise), so the orchestrator restarts a server that would otherwise serve ever older numbers and leave its
 * partitions unread. An outage of Kafka or PostgreSQL does not end the thread (it retries), so it never makes this
 * check fail; {@link IngestionHealth} reports it.
 */
@Liveness
@ApplicationScoped
public class ConsumerLiveness implements HealthCheck {

    static final String NAME = "event consumer";

    @Inject
    EventConsumer consumer;

    @Override
    public HealthCheckResponse call() {
        Optional<String> stopped = consumer.stoppedUnexpectedly();
        return HealthCheckResponse.named(NAME).status(stopped.isEmpty())
                .withData("thread", describe(stopped)).build();
    }

    /** "running", or "stopped: " and what ended the thread. */
    static String describe(Optional<String> stopped) {
        return stopped.map(cause -> "stopped: " + cause).orElse("running");
    }
}
