package io.fairledger.integrations.mesos;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.fairledger.integrations.common.GrantsAge;

/**
 * {@code GET /metrics} of the Mesos bridge ({@code --metrics-port}), in Prometheus' text format: the events published
 * and, when grants are applied, the age and validity of the grants the role weights follow, each with a
 * {@code cluster} label. The JDK's own HTTP server: the bridge needs no web framework for three lines.
 */
final class MetricsEndpoint implements AutoCloseable {

    private final HttpServer server;
    private final String cluster;
    private final MesosBridge bridge;
    private final GrantWeights weights;

    /** @param weights the weight updater, or null when the bridge applies no grants */
    MetricsEndpoint(InetSocketAddress address, String cluster, MesosBridge bridge, GrantWeights weights)
            throws IOException {
        this.cluster = cluster;
        this.bridge = bridge;
        this.weights = weights;
        server = HttpServer.create(address, 0);
        server.createContext("/metrics", this::answer);
        server.start();
    }

    int port() {
        return server.getAddress().getPort();
    }

    String exposition() {
        String label = "{cluster=\"" + cluster + "\"}";
        StringBuilder out = new StringBuilder()
                .append("# HELP fairledger_bridge_events_published_total Events the bridge published to Kafka\n")
                .append("# TYPE fairledger_bridge_events_published_total counter\n")
                .append("fairledger_bridge_events_published_total").append(label).append(' ')
                .append(bridge.published()).append('\n');
        if (weights != null) {
            GrantsAge age = weights.age();
            out.append("# HELP fairledger_bridge_grants_age_seconds Seconds since fairledger last confirmed the grants "
                    + "the role weights follow\n")
                    .append("# TYPE fairledger_bridge_grants_age_seconds gauge\n")
                    .append("fairledger_bridge_grants_age_seconds").append(label).append(' ')
                    .append(seconds(age.ageMillis())).append('\n')
                    .append("# HELP fairledger_bridge_grants_validity_seconds Seconds grants are valid after they "
                            + "were confirmed\n")
                    .append("# TYPE fairledger_bridge_grants_validity_seconds gauge\n")
                    .append("fairledger_bridge_grants_validity_seconds").append(label).append(' ')
                    .append(seconds(age.validityMillis())).append('\n');
        }
        return out.toString();
    }

    private static String seconds(long millis) {
        return String.format(Locale.ROOT, "%.3f", millis / 1000.0);
    }

    private void answer(HttpExchange exchange) throws IOException {
        byte[] body = exposition().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
