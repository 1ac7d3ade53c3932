package io.fairledger.standalone;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * The few settings that decide, before Quarkus boots, which dependencies are external and which run embedded. They
 * are read through SmallRye Config from the sources Quarkus reads, in its order: system properties, environment
 * variables (the {@code QUARKUS_DATASOURCE_JDBC_URL} form), then {@code config/application.properties} in the working
 * directory.
 */
public record StartupSettings(String jdbcUrl, String kafkaBootstrapServers, String oidcServerUrl, String httpHost) {

    public static final String JDBC_URL = "quarkus.datasource.jdbc.url";
    public static final String KAFKA_BOOTSTRAP = "kafka.bootstrap.servers";
    public static final String OIDC_URL = "quarkus.oidc.auth-server-url";
    public static final String HTTP_HOST = "quarkus.http.host";
    /** Set by standalone mode: loopback callers are trusted as admin when no OIDC server is configured. */
    public static final String TRUST_LOOPBACK = "fairledger.security.trust-loopback-as-admin";
    /** The ordinal of the application.properties packaged with the server: its defaults, not the operator's. */
    static final int BUILT_IN_ORDINAL = 250;

    /** The ledger key's file; standalone mode makes one in its data directory when it is not set. */
    public static final String LEDGER_KEY_FILE = "fairledger.ledger-key.file";

    public static StartupSettings read() {
        SmallRyeConfig config = config();
        return new StartupSettings(lookup(config, JDBC_URL), lookup(config, KAFKA_BOOTSTRAP),
                lookup(config, OIDC_URL), lookup(config, HTTP_HOST));
    }

    /** Whether {@value #LEDGER_KEY_FILE} is set in the sources Quarkus reads. */
    static boolean ledgerKeyConfigured() {
        return lookup(config(), LEDGER_KEY_FILE) != null;
    }

    /**
     * The sources Quarkus reads, in its order; the server's own {@code application.properties} (ordinal
     * {@value #BUILT_IN_ORDINAL}) is among them, below the operator's.
     */
    static SmallRyeConfig config() {
        SmallRyeConfigBuilder builder = new SmallRyeConfigBuilder().addDefaultInterceptors().addDefaultSources();
        Path configFile = Path.of("config", "application.properties");
        if (Files.isRegularFile(configFile)) {
            try {
                // the ordinal Quarkus gives this file
                builder.withSources(new PropertiesConfigSource(configFile.toUri().toURL(), 260));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + configFile.toAbsolutePath(), e);
            }
        }
        return builder.build();
    }

    static String lookup(SmallRyeConfig config, String key) {
        return config.getOptionalValue(key, String.class).map(String::trim).filter(v -> !v.isEmpty()).orElse(null);
    }

    public static Path defaultDataDir() {
        String fromEnv = System.getenv("FAIRLEDGER_DATA_DIR");
        return fromEnv != null && !fromEnv.isBlank()
                ? Path.of(fromEnv)
                : Path.of(System.getProperty("user.home"), ".fairledger");
    }

    public boolean oidcConfigured() {
        return oidcServerUrl != null;
    }

    /** Why the server must not start with these settings, or null. */
    public String refusal() {
        if (!oidcConfigured() && httpHost != null && !isLoopback(httpHost)) {
            return "refusing to bind " + httpHost + " without an OIDC server: anyone could act as admin. Set "
                    + "QUARKUS_OIDC_AUTH_SERVER_URL (see docs/configuration.md) or bind 127.0.0.1.";
        }
        return null;
    }

    static boolean isLoopback(String host) {
        return host.equals("localhost") || host.startsWith("127.") || host.equals("::1") || host.equals("[::1]");
    }
}
