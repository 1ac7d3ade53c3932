package io.fairledger.standalone;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;

/**
 * Production mode's fail-fast check: before the server boots, every configured dependency must accept a TCP
 * connection, or the server stops with a message naming the one that does not.
 */
public final class ExternalDependencies {

    private static final int TIMEOUT_MS = 5_000;

    private ExternalDependencies() {
    }

    /** A message naming the first configured dependency that cannot be reached, or null when all answer. */
    public static String firstUnreachable(StartupSettings settings) {
        if (settings.jdbcUrl() != null) {
            String problem = check("PostgreSQL", StartupSettings.JDBC_URL, settings.jdbcUrl(),
                    URI.create(settings.jdbcUrl().replaceFirst("^jdbc:", "")), 5432);
            if (problem != null) {
                return problem;
            }
        }
        if (settings.kafkaBootstrapServers() != null) {
            String first = settings.kafkaBootstrapServers().split(",")[0].trim();
            String problem = check("Kafka", StartupSettings.KAFKA_BOOTSTRAP, first, URI.create("kafka://" + first),
                    9092);
            if (problem != null) {
                return problem;
            }
        }
        if (settings.oidcServerUrl() != null) {
            URI uri = URI.create(settings.oidcServerUrl());
            return check("the OIDC server (Keycloak)", StartupSettings.OIDC_URL, settings.oidcServerUrl(), uri,
                    "https".equals(uri.getScheme()) ? 443 : 80);
        }
        return null;
    }

    private static String check(String what, String key, String value, URI uri, int defaultPort) {
        if (uri.getHost() == null) {
            return what + " address '" + value + "' (" + key + ") names no host";
        }
        int port = uri.getPort() > 0 ? uri.getPort() : defaultPort;
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(uri.getHost(), port), TIMEOUT_MS);
            return null;
        } catch (IOException e) {
            return what + " at " + uri.getHost() + ":" + port + " (" + key + ") is unreachable: " + e.getMessage();
        }
    }
}
