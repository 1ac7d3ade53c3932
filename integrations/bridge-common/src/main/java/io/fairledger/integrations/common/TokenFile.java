package io.fairledger.integrations.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A static bearer token read from a file, for identity providers the bridges have no client for: the file is read at
 * every request, so whatever renews it (a sidecar, a cron job) is followed without a restart.
 */
public final class TokenFile implements BearerToken {

    private final Path file;

    public TokenFile(Path file) {
        this.file = file;
    }

    @Override
    public String current() throws IOException {
        return BearerTokens.readSecret(file, "token file");
    }

    @Override
    public void rejected(String token) {
        // nothing to renew here: the file's next content is read at the next request
    }
}
