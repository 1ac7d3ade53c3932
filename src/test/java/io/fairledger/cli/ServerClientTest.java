package io.fairledger.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;

class ServerClientTest {

    private static final String AWKWARD_ID = "a b/c?d#e%f+g&h=ü";

    @Test
    void everySegmentIsPercentEncoded() throws Exception {
        assertThat(ServerClient.path(List.of("api", "v1", "clusters", AWKWARD_ID, "usage")))
                .isEqualTo("/api/v1/clusters/a%20b%2Fc%3Fd%23e%25f%2Bg%26h%3D%C3%BC/usage");
        assertThat(ServerClient.path(List.of("clusters", "prod-yarn_1.x~"))).isEqualTo("/clusters/prod-yarn_1.x~");
    }

    @Test
    void dotSegmentsAndEmptyIdsAreRefused() {
        for (String id : List.of("..", ".", "")) {
            assertThatThrownBy(() -> ServerClient.path(List.of("clusters", id, "grants")))
                    .isInstanceOf(ServerClient.ServerError.class).hasMessageContaining("'" + id + "' is not an id");
        }
    }

    @Test
    void theServerReceivesTheIdAsOneSegmentAndTheQueryEncoded() throws Exception {
        AtomicReference<String> rawPath = new AtomicReference<>();
        AtomicReference<String> rawQuery = new AtomicReference<>();
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        http.createContext("/", exchange -> {
            rawPath.set(exchange.getRequestURI().getRawPath());
            rawQuery.set(exchange.getRequestURI().getRawQuery());
            byte[] body = "{\"ok\":true}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        http.start();
        try {
            ServerClient client = new ServerClient();
            client.server = "http://127.0.0.1:" + http.getAddress().getPort() + "/";
            client.token = "t";
            assertThat(client.get(List.of("api", "v1", "clusters", AWKWARD_ID, "usage"),
                    Map.of("from", "2026-01-01T00:00:00+01:00")).path("ok").asBoolean()).isTrue();
            assertThat(rawPath.get()).isEqualTo("/api/v1/clusters/a%20b%2Fc%3Fd%23e%25f%2Bg%26h%3D%C3%BC/usage");
            assertThat(rawQuery.get()).isEqualTo("from=2026-01-01T00%3A00%3A00%2B01%3A00");
        } finally {
            http.stop(0);
        }
    }
}
