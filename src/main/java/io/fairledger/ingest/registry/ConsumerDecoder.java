package io.fairledger.ingest.registry;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

import io.fairledger.config.FairledgerConfig;
import io.fairledger.ingest.schema.EventDecoder;
import io.fairledger.ingest.schema.RegistryFrame;

/** The event consumer's decoder: with the configured schema registry ({@code fairledger.ingest.registry.*}), if any. */
public final class ConsumerDecoder {

    /** The pause after the first failed request to the registry, doubled after each next one. */
    static final Duration FIRST_PAUSE = Duration.ofMillis(200);

    private ConsumerDecoder() {
    }

    public static EventDecoder of(FairledgerConfig.Ingest.Registry registry, Clock clock) {
        return client(registry).map(client -> new EventDecoder(clock, EventDecoder.DEFAULT_MAX_FUTURE_SKEW, client,
                RegistryFrame.PayloadId.valueOf(registry.payloadId().name()), registry.cacheSize()))
                .orElseGet(() -> new EventDecoder(clock));
    }

    /** The client of the configured schema registry, or empty when {@code fairledger.ingest.registry.url} is unset. */
    public static Optional<RegistryClient> client(FairledgerConfig.Ingest.Registry registry) {
        return registry.url().map(url -> new RegistryClient(new RegistryClient.Settings(url,
                RegistryClient.Settings.authorization(registry.username().orElse(null),
                        registry.password().orElse(null), registry.token().orElse(null)),
                registry.timeout(), registry.attempts(), FIRST_PAUSE)));
    }
}
