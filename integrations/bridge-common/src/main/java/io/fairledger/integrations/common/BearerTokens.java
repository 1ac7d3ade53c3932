package io.fairledger.integrations.common;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;

/**
 * The bridges' credential settings, read the same way by both. Each bridge names them with its own prefix
 * ({@code fairledger.grants.} in yarn-site.xml, {@code --grants-} on the Mesos bridge's command line):
 * <ul>
 * <li>{@code client-id}, with {@code token-endpoint} or {@code issuer} (Keycloak's realm URL; the endpoint is
 * {@code <issuer>/protocol/openid-connect/token}), and the secret from {@code client-secret-file} or else the
 * environment variable {@link #SECRET_ENV}: OAuth 2.0 client credentials ({@link ClientCredentialsToken});</li>
 * <li>{@code token-file}: a static token from a file ({@link TokenFile});</li>
 * <li>none of them: no token (standalone mode trusts loopback callers).</li>
 * </ul>
 * A secret or token is never a setting's value itself, which would put it in a command line or a configuration file.
 */
public final class BearerTokens {

    /** The environment variable with the client secret, when no secret file is set. */
    public static final String SECRET_ENV = "FAIRLEDGER_GRANTS_CLIENT_SECRET";
    /** Keycloak's token endpoint below a realm's URL (its issuer). */
    public static final String KEYCLOAK_TOKEN_PATH = "/protocol/openid-connect/token";

    private BearerTokens() {
    }

    /**
     * The token the settings describe, or null when they describe none.
     *
     * @param prefix
     *            how the bridge spells its settings' names, for messages
     * @param setting
     *            a setting's value by its name without the prefix ({@code client-id}), null when unset
     * @throws IllegalArgumentException
     *             for settings that contradict or lack each other, naming them
     */
    public static BearerToken from(String prefix, Function<String, String> setting, Map<String, String> env) {
        String clientId = value(setting, "client-id");
        String endpoint = value(setting, "token-endpoint");
        String issuer = value(setting, "issuer");
        String secretFile = value(setting, "client-secret-file");
        String tokenFile = value(setting, "token-file");
        if (clientId == null) {
            for (String name : new String[]{"token-endpoint", "issuer", "client-secret-file"}) {
                if (value(setting, name) != null) {
                    throw new IllegalArgumentException(prefix + name + " is set without " + prefix + "client-id");
                }
            }
            return tokenFile == null ? null : new TokenFile(Path.of(tokenFile));
        }
        if (tokenFile != null) {
            throw new IllegalArgumentException("set either " + prefix + "client-id (OAuth client credentials) or "
                    + prefix + "token-file (a static token), not both");
        }
        if (endpoint == null && issuer == null) {
            throw new IllegalArgumentException(prefix + "client-id needs " + prefix + "token-endpoint or " + prefix
                    + "issuer (the realm URL, e.g. https://keycloak.example.com/realms/fairledger)");
        }
        URI uri = URI.create(endpoint != null ? endpoint : issuer.replaceAll("/+$", "") + KEYCLOAK_TOKEN_PATH);
        ClientCredentialsToken.Secret secret;
        if (secretFile != null) {
            Path file = Path.of(secretFile);
            secret = () -> readSecret(file, "client secret file");
        } else if (env.get(SECRET_ENV) != null && !env.get(SECRET_ENV).isBlank()) {
            secret = () -> env.get(SECRET_ENV).strip();
        } else {
            throw new IllegalArgumentException(prefix + "client-id needs a secret: " + prefix
                    + "client-secret-file or the environment variable " + SECRET_ENV);
        }
        return new ClientCredentialsToken(uri, clientId, secret);
    }

    /**
     * Sends a request with the token, and once more with a new token when the server answers 401 to the first (the
     * token was revoked, or the server's clock runs ahead). Without a token the request is sent as it is.
     */
    public static HttpResponse<String> send(HttpClient http, HttpRequest.Builder request, BearerToken token)
            throws IOException, InterruptedException {
        if (token == null) {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }
        String sent = token.current();
        HttpResponse<String> response = http.send(request.copy().header("Authorization", "Bearer " + sent).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 401) {
            return response;
        }
        token.rejected(sent);
        return http.send(request.copy().header("Authorization", "Bearer " + token.current()).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A file's content without surrounding white space; the message of a failure names the file, never content. */
    static String readSecret(Path file, String what) throws IOException {
        String content;
        try {
            content = Files.readString(file).strip();
        } catch (NoSuchFileException e) {
            throw new IOException("the " + what + " " + file + " does not exist");
        } catch (IOException e) {
            throw new IOException("cannot read the " + what + " " + file + ": " + e.getClass().getSimpleName());
        }
        if (content.isEmpty()) {
            throw new IOException("the " + what + " " + file + " is empty");
        }
        return content;
    }

    private static String value(Function<String, String> setting, String name) {
        String v = setting.apply(name);
        return v == null || v.isBlank() ? null : v.strip();
    }
}
