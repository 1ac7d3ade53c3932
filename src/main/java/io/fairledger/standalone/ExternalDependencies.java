package io.fairledger.standalone;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.util.Properties;

import org.postgresql.Driver;

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
            String problem = checkPostgres(settings.jdbcUrl());
            if (problem != null) {
                return problem;
            }
        }
        if (settings.kafkaBootstrapServers() != null) {
            String problem = checkKafka(settings.kafkaBootstrapServers());
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

    /**
     * The URL as PgJDBC reads it (so every form the driver takes is accepted, several hosts included); reachable when
     * any of its hosts answers, as the driver then connects to that one.
     */
    private static String checkPostgres(String url) {
        Properties parsed = Driver.parseURL(url, null);
        if (parsed == null) {
            return "PostgreSQL address '" + url + "' (" + StartupSettings.JDBC_URL
                    + ") is not a PostgreSQL JDBC URL (jdbc:postgresql://host[:port][,host[:port]...]/database)";
        }
        String[] hosts = parsed.getProperty("PGHOST", "localhost").split(",");
        String[] ports = parsed.getProperty("PGPORT", "5432").split(",");
        String problem = null;
        for (int i = 0; i < hosts.length; i++) {
            String host = hosts[i].startsWith("[") ? hosts[i].substring(1, hosts[i].length() - 1) : hosts[i];
            int port = Integer.parseInt(i < ports.length ? ports[i] : "5432");
            problem = check("PostgreSQL", StartupSettings.JDBC_URL, host, port);
            if (problem == null) {
                return null;
            }
        }
        return problem;
    }

    /** Reachable when any bootstrap server answers, as the Kafka client then learns the others from it. */
    private static String checkKafka(String bootstrapServers) {
        String problem = null;
        for (String server : bootstrapServers.split(",")) {
            String hostPort = server.trim();
            problem = check("Kafka", StartupSettings.KAFKA_BOOTSTRAP, hostPort, URI.create("kafka://" + hostPort),
                    9092);
            if (problem == null) {
                return null;
            }
        }
        return problem;
    }

    private static String check(String what, String key, String value, URI uri, int defaultPort) {
        if (uri.getHost() == null) {
            return what + " address '" + value + "' (" + key + ") names no host";
        }
        return check(what, key, uri.getHost(), uri.getPort() > 0 ? uri.getPort() : defaultPort);
    }

    private static String check(String what, String key, String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), TIMEOUT_MS);
            return null;
        } catch (IOException e) {
            return what + " at " + host + ":" + port + " (" + key + ") is unreachable: " + e.getMessage();
        }
    }
}
