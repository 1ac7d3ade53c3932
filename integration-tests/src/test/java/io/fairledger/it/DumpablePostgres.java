package io.fairledger.it;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import io.fairledger.testsupport.Processes;

/**
 * A fresh PostgreSQL 15 (zonky's binaries, copied by the pom to {@code fairledger.postgres15.dir}) that the PostgreSQL
 * 15 client tools of Debian 12 ({@code postgresql-client-15}: {@code pg_dump}, {@code pg_restore}, {@code psql}) can
 * back up and restore, as docs/operations.md ("Backup and restore") says an operator does. The other tests' PostgreSQL
 * is a 17, which {@code pg_dump} 15 refuses to dump.
 */
final class DumpablePostgres implements AutoCloseable {

    /** Where Debian puts the PostgreSQL 15 client tools. */
    static final Path CLIENT_BIN = Path.of("/usr/lib/postgresql/15/bin");
    private static final String USER = "postgres";
    private static final String DATABASE = "postgres";

    private final EmbeddedPostgres postgres;
    private final Path dataDir;

    private DumpablePostgres(EmbeddedPostgres postgres, Path dataDir) {
        this.postgres = postgres;
        this.dataDir = dataDir;
    }

    static DumpablePostgres start() {
        if (!Files.isExecutable(CLIENT_BIN.resolve("pg_dump"))) {
            throw new IllegalStateException("no " + CLIENT_BIN.resolve("pg_dump")
                    + ": install Debian's postgresql-client-15 (.ci/run does)");
        }
        try {
            Path dataDir = Files.createTempDirectory("fairledger-it-postgres15");
            EmbeddedPostgres postgres = EmbeddedPostgres.builder().setPgBinaryResolver(DumpablePostgres::binaries)
                    .setDataDirectory(dataDir).setCleanDataDirectory(false).setRegisterShutdownHook(false)
                    .setServerConfig("listen_addresses", "127.0.0.1").setPort(Processes.freePort()).start();
            return new DumpablePostgres(postgres, dataDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** zonky's resolver: the {@code postgres-<system>-<machine>.txz} inside one of the copied jars. */
    private static InputStream binaries(String system, String machine) throws IOException {
        String entryName = "postgres-" + system.toLowerCase(Locale.ROOT) + "-" + machine + ".txz";
        Path dir = Path.of(System.getProperty("fairledger.postgres15.dir", "target/postgres-15"));
        List<Path> jars = new ArrayList<>();
        if (Files.isDirectory(dir)) {
            try (Stream<Path> files = Files.list(dir)) {
                files.filter(f -> f.toString().endsWith(".jar")).forEach(jars::add);
            }
        }
        for (Path jar : jars) {
            try (ZipFile zip = new ZipFile(jar.toFile())) {
                ZipEntry entry = zip.getEntry(entryName);
                if (entry != null) {
                    try (InputStream in = zip.getInputStream(entry)) {
                        return new ByteArrayInputStream(in.readAllBytes());
                    }
                }
            }
        }
        throw new IOException("no " + entryName + " in " + dir.toAbsolutePath()
                + ": run the integration tests through Maven (its pre-integration-test phase copies PostgreSQL 15)");
    }

    /** The JDBC settings in the form {@code PostgresDependency} gives them. */
    Map<String, String> config() {
        return Map.of("quarkus.datasource.jdbc.url", postgres.getJdbcUrl(USER, DATABASE),
                "quarkus.datasource.username", USER, "quarkus.datasource.password", "");
    }

    /**
     * {@code pg_dump} of the whole database into {@code file} while a server may go on writing; {@code format}
     * {@code custom} (for {@link #restore}) or {@code plain} (SQL, for {@link #restorePlain}).
     */
    void dump(Path file, String format) {
        run(CLIENT_BIN.resolve("pg_dump").toString(), "--format=" + format, "--no-owner", "--file=" + file,
                connection());
    }

    /** {@code pg_restore} of a custom-format {@link #dump} into this (fresh) database. */
    void restore(Path file) {
        run(CLIENT_BIN.resolve("pg_restore").toString(), "--exit-on-error", "--dbname=" + connection(),
                file.toString());
    }

    /** {@code psql} runs a plain SQL dump ({@code pg_dump --format=plain}) into this (fresh) database. */
    void restorePlain(Path sql) {
        run(CLIENT_BIN.resolve("psql").toString(), "--quiet", "--set=ON_ERROR_STOP=1", "--file=" + sql,
                connection());
    }

    private String connection() {
        return "postgresql://" + USER + "@127.0.0.1:" + postgres.getPort() + "/" + DATABASE;
    }

    private static void run(String... command) {
        try {
            Path log = Files.createTempFile("fairledger-it-pg-client", ".log");
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
                    .start();
            int exit = process.waitFor();
            if (exit != 0) {
                throw new IllegalStateException(String.join(" ", command) + " exited with " + exit + ": "
                        + Files.readString(log));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        try {
            postgres.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            Processes.deleteTree(dataDir);
        }
    }
}
