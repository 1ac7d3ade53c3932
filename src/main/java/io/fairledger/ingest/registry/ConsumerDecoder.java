package io.fairledger.ingest.registry;

import java.time.Clock;
import java.time.Duration;

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
        if (registry.url().isEmpty()) {
            return new EventDecoder(clock);
        }
        RegistryClient client = new RegistryClient(new RegistryClient.Settings(registry.url().get(),
                RegistryClient.Settings.authorization(registry.username().orElse(null),
                        registry.password().orElse(null), registry.token().orElse(null)),
                registry.timeout(), registry.attempts(), FIRST_PAUSE));
        return new EventDecoder(clock, EventDecoder.DEFAULT_MAX_FUTURE_SKEW, client,
                RegistryFrame.PayloadId.valueOf(registry.payloadId().name()), registry.cacheSize());
    }
}
