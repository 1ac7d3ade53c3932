package io.fairledger.standalone;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * The settings standalone mode fills in before Quarkus boots (the embedded PostgreSQL's and Kafka broker's addresses,
 * loopback trust without an OIDC server), handed to Quarkus as a configuration source instead of system properties.
 * Its ordinal is below environment variables (300) and {@code config/application.properties} (260), so it only ever
 * supplies what the operator left unset; it is empty outside {@code fairledger serve}. Registered in
 * {@code META-INF/services/org.eclipse.microprofile.config.spi.ConfigSource}.
 */
public final class StandaloneConfigSource implements ConfigSource {

    static final int ORDINAL = 255;
    private static final Map<String, String> VALUES = new ConcurrentHashMap<>();

    static void put(String key, String value) {
        VALUES.put(key, value);
    }

    @Override
    public Map<String, String> getProperties() {
        return Map.copyOf(VALUES);
    }

    @Override
    public Set<String> getPropertyNames() {
        return Set.copyOf(VALUES.keySet());
    }

    @Override
    public String getValue(String propertyName) {
        return VALUES.get(propertyName);
    }

    @Override
    public String getName() {
        return "fairledger-standalone";
    }

    @Override
    public int getOrdinal() {
        return ORDINAL;
    }
}
