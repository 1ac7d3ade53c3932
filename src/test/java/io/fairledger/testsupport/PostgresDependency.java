package io.fairledger.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Map;

import org.testcontainers.postgresql.PostgreSQLContainer;

import io.fairledger.standalone.EmbeddedPostgresServer;

/**
 * A real PostgreSQL for tests: {@code FAIRLEDGER_TEST_POSTGRES_URL} (with {@code _USER}, {@code _PASSWORD}), else a
 * Testcontainers {@code postgres:17}, else the embedded server standalone mode uses, in a fresh temporary directory.
 */
public final class PostgresDependency {

    private PostgresDependency() {
    }

    public static RealDependency.Running start() {
        return RealDependency.start("PostgreSQL", PostgresDependency::fromEnv, PostgresDependency::container,
                PostgresDependency::embedded,
                "Set FAIRLEDGER_TEST_POSTGRES_URL to a PostgreSQL JDBC URL, or make sure the embedded binaries "
                        + "(io.zonky.test.postgres) can be downloaded from Maven Central.");
    }

    private static RealDependency.Running fromEnv() {
        String url = RealDependency.env("FAIRLEDGER_TEST_POSTGRES_URL");
        if (url == null) {
            return null;
        }
        return running(url, valueOr("FAIRLEDGER_TEST_POSTGRES_USER", "postgres"),
                valueOr("FAIRLEDGER_TEST_POSTGRES_PASSWORD", ""), () -> {
                });
    }

    @SuppressWarnings("resource")
    private static RealDependency.Running container() {
        PostgreSQLContainer container = new PostgreSQLContainer("postgres:17-alpine");
        container.start();
        return running(container.getJdbcUrl(), container.getUsername(), container.getPassword(), container::stop);
    }

    private static RealDependency.Running embedded() {
        try {
            java.nio.file.Path dir = Files.createTempDirectory("fairledger-test-postgres");
            // throwaway test data: no fsync, as the tests run faster without it
            EmbeddedPostgresServer server = EmbeddedPostgresServer.start(dir, 0,
                    EmbeddedPostgresServer.Durability.NO_FSYNC);
            return running(server.jdbcUrl(), EmbeddedPostgresServer.USER, "", () -> {
                server.close();
                Processes.deleteTree(dir);
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String valueOr(String name, String fallback) {
        String value = RealDependency.env(name);
        return value == null ? fallback : value;
    }

    private static RealDependency.Running running(String url, String user, String password, Runnable stop) {
        return RealDependency.Running.of(Map.of("quarkus.datasource.jdbc.url", url, "quarkus.datasource.username",
                user, "quarkus.datasource.password", password), stop);
    }
}
