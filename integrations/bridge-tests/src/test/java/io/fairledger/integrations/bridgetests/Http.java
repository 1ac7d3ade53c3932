package io.fairledger.integrations.bridgetests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * JSON over HTTP to the server under test: without a token (loopback callers are admin when the server runs without
 * OIDC), or with a bearer token.
 */
final class Http {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    private Http() {
    }

    static HttpResponse<String> send(String method, String url, String body) {
        return send(method, url, body, null);
    }

    static HttpResponse<String> send(String method, String url, String body, String token) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).header("Accept", "application/json");
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
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

    /** A form POST ({@code application/x-www-form-urlencoded}), as to a token endpoint. */
    static HttpResponse<String> form(String url, String form) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).header("Accept", "application/json")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build();
        try {
            return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
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
