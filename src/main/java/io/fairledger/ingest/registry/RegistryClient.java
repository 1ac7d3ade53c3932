package io.fairledger.ingest.registry;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
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
 * {@code GET {url}/ids/contentIds/{id}} and {@code GET {url}/ids/globalIds/{id}}, which answer the schema text, and
 * {@code .../references}, the artifact versions it references ({@code GET {url}/groups/{g}/artifacts/{a}/versions/{v}},
 * v3 with {@code /content});</li>
 * <li>any other URL is a Confluent-compatible API (Confluent Schema Registry, or Apicurio's
 * {@code /apis/ccompat/v7}): {@code GET {url}/schemas/ids/{id}}, which answers {@code {"schema": "...",
 * "references": [...]}}, each reference {@code GET {url}/subjects/{subject}/versions/{version}}; it knows content ids
 * only.</li>
 * </ul>
 * Referenced schemas matter: Apicurio's serializers register a record's named types (its enums) as artifacts of their
 * own, which the record's schema only names.
 * An id is unknown only when the registry says so: a 404 whose JSON body names a missing schema. A
 * timeout, a connection refused, a 5xx or 429 is tried again, {@code attempts} times in all with a doubling pause;
 * then, like refused credentials or any other answer, the registry counts as unavailable
 * ({@link RegistryUnavailableException}), so the consumer waits instead of dead-lettering events it could decode.
 * Thread-safe.
 */
public final class RegistryClient implements SchemaRegistry {

    private static final Pattern APICURIO_API = Pattern.compile(".*/apis/registry/v([23])/?$");
    /** How many schemas one schema may reference, directly or not. */
    static final int MAX_REFERENCES = 100;
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * How to reach the registry.
     *
     * @param url           the registry API's base URL
     * @param authorization the {@code Authorization} header value, or null
     * @param timeout       how long one request may take, connecting included
     * @param attempts      tries of each request before the registry counts as unavailable, at least 1
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
    private final boolean apicurioV3;
    private final HttpClient http;

    public RegistryClient(Settings settings) {
        this.settings = settings;
        String url = settings.url().toString();
        this.base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        Matcher api = APICURIO_API.matcher(url);
        this.apicurio = api.matches();
        this.apicurioV3 = apicurio && api.group(1).equals("3");
        this.http = HttpClient.newBuilder().connectTimeout(settings.timeout())
                .followRedirects(HttpClient.Redirect.NORMAL).build();
    }

    @Override
    public Answer lookup(RegistryFrame.IdKind kind, long id) {
        if (!apicurio && kind == RegistryFrame.IdKind.GLOBAL_ID) {
            return Answer.unknown("a global id is looked up in Apicurio's own API, and the registry URL " + base
                    + " is a Confluent-compatible one; set fairledger.ingest.registry.url to Apicurio's"
                    + " .../apis/registry/v2 or v3");
        }
        String path = apicurio
                ? "/ids/" + (kind == RegistryFrame.IdKind.GLOBAL_ID ? "globalIds" : "contentIds") + "/" + id
                : "/schemas/ids/" + id;
        Reply reply = get(path);
        if (reply.body() == null) {
            return Answer.unknown(reply.unknown());
        }
        List<String> references = new ArrayList<>();
        String schema;
        if (apicurio) {
            schema = reply.body();
            apicurioReferences(path + "/references", references, new HashSet<>());
        } else {
            JsonNode answer = confluentAnswer(path, reply.body());
            schema = answer.get("schema").textValue();
            confluentReferences(answer, references, new HashSet<>());
        }
        return Answer.found(schema, references);
    }

    /**
     * Whether the registry answers now: one {@code GET} of a cheap read ({@code {url}/system/info} of Apicurio's API,
     * {@code {url}/config} of a Confluent-compatible one) answered 200, with the credentials, not tried again. For the
     * gauge {@code fairledger_schema_registry_up}.
     */
    public boolean answers() {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + (apicurio ? "/system/info" : "/config")))
                .timeout(settings.timeout()).GET().header("Accept", "application/json, */*");
        if (settings.authorization() != null) {
            request.header("Authorization", settings.authorization());
        }
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Adds the schemas an Apicurio artifact version references (its {@code references} at {@code referencesPath},
     * each a {@code groupId}, {@code artifactId} and {@code version}), each after those it references in turn.
     */
    private void apicurioReferences(String referencesPath, List<String> into, Set<String> seen) {
        for (JsonNode reference : json(required(referencesPath))) {
            String version = "/groups/" + segment(reference.path("groupId").asText("default")) + "/artifacts/"
                    + segment(reference.path("artifactId").asText()) + "/versions/"
                    + segment(reference.path("version").asText());
            if (seen.add(version)) {
                checkReferenceCount(seen);
                apicurioReferences(version + "/references", into, seen);
                into.add(required(version + (apicurioV3 ? "/content" : "")));
            }
        }
    }

    /**
     * Adds the schemas of a Confluent-compatible answer's {@code references} (each a {@code subject} and
     * {@code version}), each after those it references in turn.
     */
    private void confluentReferences(JsonNode answer, List<String> into, Set<String> seen) {
        for (JsonNode reference : answer.path("references")) {
            String version = "/subjects/" + segment(reference.path("subject").asText()) + "/versions/"
                    + segment(reference.path("version").asText());
            if (seen.add(version)) {
                checkReferenceCount(seen);
                JsonNode referenced = confluentAnswer(version, required(version));
                confluentReferences(referenced, into, seen);
                into.add(referenced.get("schema").textValue());
            }
        }
    }

    private void checkReferenceCount(Set<String> seen) {
        if (seen.size() > MAX_REFERENCES) {
            throw new RegistryUnavailableException("the schema registry " + base + " answered a schema referencing"
                    + " more than " + MAX_REFERENCES + " others", null);
        }
    }

    /** The body at {@code path}, which must exist: a referenced schema the registry lost is the registry's fault. */
    private String required(String path) {
        Reply reply = get(path);
        if (reply.body() == null) {
            throw new RegistryUnavailableException("the schema registry lacks a referenced schema: "
                    + reply.unknown(), null);
        }
        return reply.body();
    }

    /** A body, or why the registry has none. */
    private record Reply(String body, String unknown) {
    }

    /**
     * GETs {@code path} below the base URL: tried again on a connection failure, 5xx or 429, {@code attempts} times
     * in all with a doubling pause.
     *
     * @throws RegistryUnavailableException when no answer came, or one that is neither a body nor "no such id"
     */
    private Reply get(String path) {
        URI uri = URI.create(base + path);
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
                return new Reply(response.body(), null);
            }
            String notFound = status == 404 ? unknownId(response.body()) : null;
            if (notFound != null) {
                return new Reply(null, uri + " answered 404: " + notFound);
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

    /** A Confluent-compatible answer, {@code {"schema": "...", "references": [...]}}. */
    private JsonNode confluentAnswer(String path, String body) {
        JsonNode answer = json(body);
        if (!answer.path("schema").isTextual()) {
            throw new RegistryUnavailableException("the schema registry " + base + path
                    + " answered 200 without a \"schema\" member; is fairledger.ingest.registry.url the registry"
                    + " API's base URL?", null);
        }
        return answer;
    }

    private static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
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
