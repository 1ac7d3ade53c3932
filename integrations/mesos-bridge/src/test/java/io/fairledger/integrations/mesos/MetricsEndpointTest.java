package io.fairledger.integrations.mesos;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

class MetricsEndpointTest {

    @Test
    void servesTheGrantsAgeAndValidityAndThePublishedEventsWithTheClusterLabel() throws Exception {
        List<URI> masters = List.of(URI.create("http://127.0.0.1:1"));
        MesosBridge bridge = new MesosBridge(new MesosBridge.Settings(masters, "prod-mesos", Duration.ofSeconds(45),
                Duration.ofSeconds(2)), new EventSink() {
                    @Override
                    public void publish(String topic, String key, String json) {
                    }

                    @Override
                    public void close() {
                    }
                });
        try (GrantWeights weights = new GrantWeights("http://127.0.0.1:1", "prod-mesos", null, masters,
                Duration.ofSeconds(10));
                MetricsEndpoint metrics = new MetricsEndpoint(new InetSocketAddress("127.0.0.1", 0), "prod-mesos",
                        bridge, weights)) {
            String body = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + metrics.port() + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            assertThat(body).contains("fairledger_bridge_events_published_total{cluster=\"prod-mesos\"} 0\n")
                    .containsPattern(
                            "\nfairledger_bridge_grants_age_seconds\\{cluster=\"prod-mesos\"\\} \\d+\\.\\d{3}\n")
                    .contains("fairledger_bridge_grants_validity_seconds{cluster=\"prod-mesos\"} 20.000\n")
                    .contains("# TYPE fairledger_bridge_grants_age_seconds gauge");
        }
    }
}
