package io.fairledger.integrations.common;

import java.io.IOException;

/**
 * Where a bridge's bearer token for fairledger's API comes from: an OAuth 2.0 client ({@link ClientCredentialsToken})
 * or a file another tool keeps current ({@link TokenFile}). {@link BearerTokens#from} picks one from the settings.
 */
public interface BearerToken {

    /**
     * The token to send now.
     *
     * @throws IOException
     *             when there is none to send (the token endpoint failing, an unreadable file); the message names the
     *             source and never the secret or a token
     */
    String current() throws IOException;

    /** The server answered 401 to {@code token}: the next {@link #current()} does not return it again. */
    void rejected(String token);
}
