package io.fairledger.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.fairledger.standalone.EmbeddedPostgresServer.Durability;
import io.fairledger.testsupport.Processes;

/**
 * A killed embedded PostgreSQL is started again on its directory and port with its data; killed once more than the
 * watchdog allows within its window, the process is asked to exit non-zero.
 */
class PostgresWatchdogTest {

    private Path dir;

    @BeforeEach
    void createDirectory() throws Exception {
        dir = Files.createTempDirectory("fairledger-test-watchdog");
    }

    @AfterEach
    void deleteDirectory() {
        Processes.deleteTree(dir);
    }

    @Test
    void aKilledPostgresIsRestartedWithItsDataUntilTheBoundThenTheProcessExits() throws Exception {
        AtomicReference<EmbeddedPostgresServer> current = new AtomicReference<>(
                EmbeddedPostgresServer.start(dir, 0, Durability.FSYNC));
        List<Integer> exits = new ArrayList<>();
        PostgresWatchdog watchdog = new PostgresWatchdog(new PostgresWatchdog.Host() {
            @Override
            public EmbeddedPostgresServer current() {
                return current.get();
            }

            @Override
            public boolean replace(EmbeddedPostgresServer dead, EmbeddedPostgresServer restarted) {
                return current.compareAndSet(dead, restarted);
            }
        }, exits::add);
        int port = current.get().port();
        try {
            // durable commits: without synchronous_commit a commit may still be in memory when the process dies
            execute(current.get(), "create table kept(n int); insert into kept values (42)");
            for (int restart = 1; restart <= PostgresWatchdog.MAX_RESTARTS; restart++) {
                EmbeddedPostgresServer dead = kill(current.get());
                assertThat(watchdog.restart(dead)).isTrue();
                assertThat(current.get()).isNotSameAs(dead);
                assertThat(current.get().port()).isEqualTo(port);
                assertThat(query(current.get(), "select n from kept")).isEqualTo("42");
            }
            EmbeddedPostgresServer dead = kill(current.get());
            assertThat(watchdog.restart(dead)).isFalse();
            assertThat(exits).containsExactly(PostgresWatchdog.EXIT_CODE);
        } finally {
            current.get().stop();
        }
    }

    private EmbeddedPostgresServer kill(EmbeddedPostgresServer server) {
        ProcessHandle.of(Postmaster.find(dir).orElseThrow().pid()).orElseThrow().destroyForcibly();
        Awaitility.await().atMost(30, TimeUnit.SECONDS).until(() -> !server.isRunning());
        return server;
    }

    private static String query(EmbeddedPostgresServer server, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(server.jdbcUrl(), EmbeddedPostgresServer.USER, "");
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static void execute(EmbeddedPostgresServer server, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(server.jdbcUrl(), EmbeddedPostgresServer.USER, "");
                Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
