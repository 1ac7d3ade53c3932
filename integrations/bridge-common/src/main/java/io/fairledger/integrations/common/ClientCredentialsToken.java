package io.fairledger.integrations.common;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Access tokens of the OAuth 2.0 client credentials grant (RFC 6749, section 4.4): the client id and secret are posted
 * to the token endpoint (client authentication in the request body, section 2.3.1), and the token is kept until 80% of
 * its {@code expires_in} has passed, and at least {@link #MIN_MARGIN} before it expires; then the next
 * {@link #current()} asks for a new one. A token the server answered 401 to is dropped at once.
 * <p>
 * While the endpoint fails, it is asked again only after a back-off that doubles from {@code firstBackOff} up to
 * {@code maxBackOff}; a token not yet expired is still handed out meanwhile. One warning when the endpoint starts
 * failing, one info line when it answers again. The secret is read at every request (so a rotated secret file is
 * followed without a restart), and neither it nor a token ever appears in a log line or an exception message.
 */
public final class ClientCredentialsToken implements BearerToken {

    /** The least time before expiry at which a token is renewed. */
    public static final Duration MIN_MARGIN = Duration.ofSeconds(5);
    /** What {@code expires_in} is taken to be when the endpoint leaves it out (RFC 6749 only recommends it). */
    static final long DEFAULT_EXPIRES_IN_SECONDS = 60;

    private static final Logger LOG = LoggerFactory.getLogger(ClientCredentialsToken.class);

    /** Where the secret comes from: a file or an environment variable, read at every token request. */
    @FunctionalInterface
    public interface Secret {
        String read() throws IOException;
    }

    private final HttpClient http;
    private final URI endpoint;
    private final String clientId;
    private final Secret secret;
    private final long firstBackOffMillis;
    private final long maxBackOffMillis;
    private final LongSupplier clock;

    private String token;
    private long renewAt;
    private long expiresAt;
    private int failures;
    private long nextTryAt;
    private String lastProblem;
    private long issued;

    public ClientCredentialsToken(URI endpoint, String clientId, Secret secret) {
        this(HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build(), endpoint, clientId, secret,
                Duration.ofSeconds(1), Duration.ofMinutes(1), System::currentTimeMillis);
    }

    /** With the back-off's first and longest wait, and a clock in epoch milliseconds. */
    public ClientCredentialsToken(HttpClient http, URI endpoint, String clientId, Secret secret, Duration firstBackOff,
            Duration maxBackOff, LongSupplier clock) {
        this.http = http;
        this.endpoint = endpoint;
        this.clientId = clientId;
        this.secret = secret;
        this.firstBackOffMillis = firstBackOff.toMillis();
        this.maxBackOffMillis = maxBackOff.toMillis();
        this.clock = clock;
    }

    @Override
    public synchronized String current() throws IOException {
        long now = clock.getAsLong();
        if (token != null && now < renewAt) {
            return token;
        }
        if (now < nextTryAt) {
            return stillValid(now, new IOException("the token endpoint " + endpoint + " failed (" + lastProblem
                    + "); next try in " + (nextTryAt - now) + " ms"));
        }
        try {
            request(now);
        } catch (IOException e) {
            failures++;
            nextTryAt = now + backOff(failures);
            lastProblem = e.getMessage();
            if (failures == 1) {
                LOG.warn("fairledger credentials: no access token from {} for client {}: {}; trying again with "
                        + "back-off", endpoint, clientId, e.getMessage());
            }
            return stillValid(now, e);
        }
        if (failures > 0) {
            LOG.info("fairledger credentials: {} issues tokens again (after {} failed requests)", endpoint, failures);
        }
        failures = 0;
        nextTryAt = 0;
        return token;
    }

    @Override
    public synchronized void rejected(String rejected) {
        if (rejected != null && rejected.equals(token)) {
            token = null;
        }
    }

    /** Tokens issued so far. */
    public synchronized long issued() {
        return issued;
    }

    /** The wait after the {@code failures}-th failure in a row: doubling from the first back-off, capped. */
    long backOff(int failures) {
        long wait = firstBackOffMillis;
        for (int i = 1; i < failures && wait < maxBackOffMillis; i++) {
            wait *= 2;
        }
        return Math.min(wait, maxBackOffMillis);
    }

    /** When a token that lasts {@code expiresInMillis} is renewed: at 80%, at least the margin before it expires. */
    static long renewAfter(long expiresInMillis) {
        long early = Math.min(expiresInMillis * 8 / 10, expiresInMillis - MIN_MARGIN.toMillis());
        return Math.max(early, expiresInMillis / 2);
    }

    private String stillValid(long now, IOException problem) throws IOException {
        if (token != null && now < expiresAt) {
            return token;
        }
        throw problem;
    }

    @SuppressWarnings("unchecked")
    private void request(long now) throws IOException {
        String form = "grant_type=client_credentials&client_id=" + encode(clientId) + "&client_secret="
                + encode(secret.read());
        HttpRequest request = HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/x-www-form-urlencoded").header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while asking " + endpoint + " for a token");
        }
        Map<String, Object> answer;
        try {
            answer = MiniJson.parse(response.body()) instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
        } catch (IllegalArgumentException notJson) {
            answer = Map.of();
        }
        if (response.statusCode() != 200) {
            throw new IOException("HTTP " + response.statusCode() + errorCode(answer));
        }
        if (!(answer.get("access_token") instanceof String accessToken) || accessToken.isEmpty()) {
            throw new IOException("HTTP 200 without an access_token");
        }
        if (answer.get("token_type") instanceof String type && !type.equalsIgnoreCase("Bearer")) {
            throw new IOException("token_type " + type + ", not Bearer");
        }
        long expiresIn = expiresInSeconds(answer.get("expires_in")) * 1000;
        token = accessToken;
        renewAt = now + renewAfter(expiresIn);
        expiresAt = now + expiresIn;
        issued++;
    }

    /** {@code expires_in} as a number, or a string of digits as some servers send it; the default when absent. */
    private static long expiresInSeconds(Object value) {
        if (value instanceof Double d && d >= 1) {
            return d.longValue();
        }
        if (value instanceof String text && text.matches("[0-9]{1,9}") && Long.parseLong(text) > 0) {
            return Long.parseLong(text);
        }
        return DEFAULT_EXPIRES_IN_SECONDS;
    }

    /**
     * The RFC 6749 error code of an error answer (section 5.2: {@code invalid_client}, say), only when it has the
     * form of one: the rest of the body is never repeated, as a server may echo the request, secret included.
     */
    private static String errorCode(Map<String, Object> answer) {
        return answer.get("error") instanceof String code && code.matches("[a-z_]{1,64}") ? " (" + code + ")" : "";
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
