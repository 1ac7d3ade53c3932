package io.fairledger.integrations.bridgetests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** JSON over HTTP to the server under test (loopback callers are admin in this mode). */
final class Http {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    private Http() {
    }

    static HttpResponse<String> send(String method, String url, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).header("Accept", "application/json");
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json").method(method,
                    HttpRequest.BodyPublishers.ofString(body));
        }
        try {
            return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static String expect(int status, HttpResponse<String> response) {
        if (response.statusCode() != status) {
            throw new AssertionError(response.request().method() + " " + response.uri() + ": expected " + status
                    + ", got " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }
}
