package io.fairledger.cli;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import picocli.CommandLine.Option;

/**
 * The server a reporting command asks ({@code report}, {@code shares}): its URL and, unless the server trusts loopback
 * callers as admin (standalone mode), a bearer token. A picocli mixin, so every such command takes the same options.
 */
public final class ServerClient {

    /** The token's environment variable, so it stays out of the shell history and {@code ps}. */
    public static final String TOKEN_VARIABLE = "FAIRLEDGER_TOKEN";

    /** Decimals as BigDecimal: money and usage are printed exactly as the server sent them. */
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    @Option(names = "--server", paramLabel = "URL", defaultValue = "http://127.0.0.1:8080", description = "The fairledger server (default: ${DEFAULT-VALUE}).")
    String server;

    @Option(names = "--token", paramLabel = "JWT", description = "Bearer access token; default the environment variable "
            + TOKEN_VARIABLE + "; none: the loopback admin of standalone mode.")
    String token;

    /** A refusal or failure of the server, with its problem's detail when it sent one. */
    public static final class ServerError extends Exception {
        public ServerError(String message) {
            super(message);
        }
    }

    /**
     * GET the path of these segments, each percent-encoded (so an id with {@code /}, {@code ?}, {@code %} or a space
     * stays one segment), with {@code query} (null values left out), and its JSON answer.
     */
    public JsonNode get(List<String> segments, Map<String, String> query) throws ServerError, InterruptedException {
        try {
            return JSON.readTree(getText(segments, query, "application/json"));
        } catch (IOException e) {
            throw new ServerError(server + " answered 200 without JSON");
        }
    }

    /** {@link #get} for an answer in {@code accept} (such as {@code text/csv}), as text. */
    public String getText(List<String> segments, Map<String, String> query, String accept)
            throws ServerError, InterruptedException {
        String path = path(segments);
        StringJoiner q = new StringJoiner("&", "?", "").setEmptyValue("");
        query.forEach((k, v) -> {
            if (v != null) {
                q.add(k + "=" + URLEncoder.encode(v, StandardCharsets.UTF_8));
            }
        });
        URI uri;
        try {
            uri = URI.create(server.replaceAll("/+$", "") + path + q);
        } catch (IllegalArgumentException e) {
            throw new ServerError("--server " + server + " is not a URL: " + e.getMessage());
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60))
                .header("Accept", accept);
        String bearer = token != null ? token : System.getenv(TOKEN_VARIABLE);
        if (bearer != null && !bearer.isBlank()) {
            request.header("Authorization", "Bearer " + bearer.strip());
        }
        HttpResponse<String> response;
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        try {
            response = http.send(request.GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new ServerError("cannot reach " + uri + ": " + e);
        }
        if (response.statusCode() != 200) {
            JsonNode body;
            try {
                body = JSON.readTree(response.body());
            } catch (IOException e) {
                body = null;
            }
            String detail = body != null && body.hasNonNull("detail")
                    ? body.get("detail").asText()
                    : response.body();
            throw new ServerError(uri + " answered " + response.statusCode()
                    + (response.statusCode() == 401 ? " (give --token or " + TOKEN_VARIABLE + ")" : "")
                    + (detail == null || detail.isBlank() ? "" : ": " + detail));
        }
        return response.body();
    }

    /** {@code /a/b/c} from its segments, each encoded as an RFC 3986 path segment (UTF-8, unreserved kept). */
    static String path(List<String> segments) throws ServerError {
        StringBuilder path = new StringBuilder();
        for (String segment : segments) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                throw new ServerError("'" + segment + "' is not an id (it would change the path it is put into)");
            }
            path.append('/');
            for (byte b : segment.getBytes(StandardCharsets.UTF_8)) {
                char c = (char) (b & 0xff);
                if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "-._~".indexOf(c) >= 0) {
                    path.append(c);
                } else {
                    path.append(String.format("%%%02X", (int) c));
                }
            }
        }
        return path.toString();
    }
}
