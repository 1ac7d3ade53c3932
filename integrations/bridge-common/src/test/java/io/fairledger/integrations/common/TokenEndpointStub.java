package io.fairledger.integrations.common;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A tiny HTTP server on loopback for the tests: every request to a path is recorded (its form parameters and
 * {@code Authorization} header) and answered by the handler given for the path.
 */
final class TokenEndpointStub implements AutoCloseable {

    /** An answer: status and JSON body. */
    record Answer(int status, String body) {
    }

    /** A request received: form parameters of its body and its {@code Authorization} header (or null). */
    record Received(Map<String, String> form, String authorization) {
    }

    final List<Received> received = new CopyOnWriteArrayList<>();
    private final HttpServer server;

    TokenEndpointStub(Map<String, Function<Received, Answer>> handlers) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        handlers.forEach((path, handler) -> server.createContext(path, exchange -> answer(exchange, handler)));
        server.start();
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    long requests(String path) {
        return received.stream().filter(r -> r.form().get("path").equals(path)).count();
    }

    private void answer(HttpExchange exchange, Function<Received, Answer> handler) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Map<String, String> form = new java.util.HashMap<>();
        for (String pair : body.split("&")) {
            String[] kv = pair.split("=", 2);
            if (kv.length == 2) {
                form.put(URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
                        URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
            }
        }
        form.put("path", exchange.getHttpContext().getPath());
        form.put("raw", body);
        Received r = new Received(Map.copyOf(form), exchange.getRequestHeaders().getFirst("Authorization"));
        received.add(r);
        Answer a = handler.apply(r);
        byte[] bytes = a.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(a.status(), bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
