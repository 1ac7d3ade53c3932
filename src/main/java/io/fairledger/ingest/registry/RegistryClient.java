package io.fairledger.ingest.registry;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Objects;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fairledger.ingest.schema.RegistryFrame;
import io.fairledger.ingest.schema.RegistryUnavailableException;
import io.fairledger.ingest.schema.SchemaRegistry;

/**
 * Asks a schema registry's REST API for the schema of an id. Which API is told by the URL:
 * <ul>
 * <li>Apicurio's own, a URL ending {@code /apis/registry/v2} or {@code /apis/registry/v3}:
 * {@code GET {url}/ids/contentIds/{id}} and {@code GET {url}/ids/globalIds/{id}}, which answer the schema text;</li>
 * <li>any other URL is a Confluent-compatible API (Confluent Schema Registry, or Apicurio's
 * {@code /apis/ccompat/v7}): {@code GET {url}/schemas/ids/{id}}, which answers {@code {"schema": "..."}}; it knows
 * content ids only.</li>
 * </ul>
 * An id is unknown only when the registry says so: a 404 whose JSON body names a missing schema. A
 * timeout, a connection refused, a 5xx or 429 is tried again, {@code attempts} times in all with a doubling pause;
 * then, like refused credentials or any other answer, the registry counts as unavailable
 * ({@link RegistryUnavailableException}), so the consumer waits instead of dead-lettering events it could decode.
 * Thread-safe.
 */
public final class RegistryClient implements SchemaRegistry {

    private static final Pattern APICURIO_API = Pattern.compile(".*/apis/registry/v[23]/?$");
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * How to reach the registry.
     *
     * @param url           the registry API's base URL
     * @param authorization the {@code Authorization} header value, or null
     * @param timeout       how long one request may take, connecting included
     * @param attempts      requests per lookup before the registry counts as unavailable, at least 1
     * @param firstPause    the pause after the first failed request, doubled after each next one
     */
    public record Settings(URI url, String authorization, Duration timeout, int attempts, Duration firstPause) {

        public Settings {
            Objects.requireNonNull(url, "url");
            if (attempts < 1) {
                throw new IllegalArgumentException("attempts must be at least 1, got " + attempts);
            }
        }

        /** Basic authentication (a username and password), a bearer token, or none. */
        public static String authorization(String username, String password, String token) {
            if (token != null && !token.isBlank()) {
                return "Bearer " + token;
            }
            if (username != null && !username.isBlank()) {
                String pair = username + ":" + (password == null ? "" : password);
                return "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
            }
            return null;
        }
    }

    private final Settings settings;
    private final String base;
    private final boolean apicurio;
    private final HttpClient http;

    public RegistryClient(Settings settings) {
        this.settings = settings;
        String url = settings.url().toString();
        this.base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        this.apicurio = APICURIO_API.matcher(url).matches();
        this.http = HttpClient.newBuilder().connectTimeout(settings.timeout())
                .followRedirects(HttpClient.Redirect.NORMAL).build();
    }

    @Override
    public Answer lookup(RegistryFrame.IdKind kind, long id) {
        URI uri;
        if (apicurio) {
            uri = URI.create(base + "/ids/" + (kind == RegistryFrame.IdKind.GLOBAL_ID ? "globalIds" : "contentIds")
                    + "/" + id);
        } else if (kind == RegistryFrame.IdKind.CONTENT_ID) {
            uri = URI.create(base + "/schemas/ids/" + id);
        } else {
            return Answer.unknown("a global id is looked up in Apicurio's own API, and the registry URL " + base
                    + " is a Confluent-compatible one; set fairledger.ingest.registry.url to Apicurio's"
                    + " .../apis/registry/v2 or v3");
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(settings.timeout()).GET()
                .header("Accept", "application/json, */*");
        if (settings.authorization() != null) {
            request.header("Authorization", settings.authorization());
        }
        String failure = null;
        Exception cause = null;
        Duration pause = settings.firstPause();
        for (int attempt = 1; attempt <= settings.attempts(); attempt++) {
            if (attempt > 1) {
                sleep(pause, uri);
                pause = pause.multipliedBy(2);
            }
            HttpResponse<String> response;
            try {
                response = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            } catch (IOException e) {
                failure = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
                cause = e;
                continue;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RegistryUnavailableException("interrupted while asking the schema registry " + uri, e);
            }
            int status = response.statusCode();
            if (status == 200) {
                return apicurio ? Answer.found(response.body()) : confluentSchema(uri, response.body());
            }
            String notFound = status == 404 ? unknownId(response.body()) : null;
            if (notFound != null) {
                return Answer.unknown(uri + " answered 404: " + notFound);
            }
            failure = "answered " + status + errorMessage(response.body());
            if (status == 401 || status == 403) {
                throw new RegistryUnavailableException("the schema registry " + uri + " " + failure
                        + "; check fairledger.ingest.registry.username and password, or token", null);
            }
            if (status == 404) {
                throw new RegistryUnavailableException("the schema registry " + uri + " " + failure
                        + ", which is not a registry's \"no such id\"; is fairledger.ingest.registry.url the registry"
                        + " API's base URL?", null);
            }
            if (status != 429 && status < 500) {
                throw new RegistryUnavailableException("the schema registry " + uri + " " + failure, null);
            }
        }
        throw new RegistryUnavailableException("the schema registry did not answer GET " + uri + " after "
                + settings.attempts() + " attempt(s): " + failure, cause);
    }

    /** The schema text of a Confluent-compatible answer, {@code {"schema": "...", ...}}. */
    private static Answer confluentSchema(URI uri, String body) {
        try {
            JsonNode schema = JSON.readTree(body).path("schema");
            if (schema.isTextual()) {
                return Answer.found(schema.textValue());
            }
        } catch (JsonProcessingException e) {
            // said below
        }
        throw new RegistryUnavailableException("the schema registry " + uri
                + " answered 200 without a \"schema\" member; is fairledger.ingest.registry.url the registry API's"
                + " base URL?", null);
    }

    /**
     * The registry's words when a 404's body says the id is unknown, or null when it says something else (the URL is
     * not the registry's API, say): Confluent's {@code error_code} 40403 (schema not found, also Apicurio's
     * Confluent-compatible API), or Apicurio's {@code name} of a registry exception such as
     * {@code ContentNotFoundException} or {@code ArtifactNotFoundException}, not the HTTP layer's bare
     * {@code NotFoundException}.
     */
    private static String unknownId(String body) {
        JsonNode error = json(body);
        String name = error.path("name").asText("");
        if (error.path("error_code").asInt() == 40403
                || name.endsWith("NotFoundException") && !name.equals("NotFoundException")) {
            return error.path(error.has("message") ? "message" : "detail").asText("")
                    + (error.has("error_code") ? " (error_code " + error.get("error_code").asText() + ")" : "");
        }
        return null;
    }

    /** {@code ": "} and the message of a registry's JSON error body, or nothing. */
    private static String errorMessage(String body) {
        JsonNode error = json(body);
        String message = error.path(error.has("message") ? "message" : "detail").asText("");
        return message.isEmpty() ? "" : ": " + message;
    }

    private static JsonNode json(String body) {
        try {
            JsonNode node = JSON.readTree(body);
            return node == null ? JSON.createObjectNode() : node;
        } catch (JsonProcessingException e) {
            return JSON.createObjectNode();
        }
    }

    private static void sleep(Duration pause, URI uri) {
        try {
            Thread.sleep(pause.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RegistryUnavailableException("interrupted while asking the schema registry " + uri, e);
        }
    }
}
