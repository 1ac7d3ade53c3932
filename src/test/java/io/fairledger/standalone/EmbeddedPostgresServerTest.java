package io.fairledger.standalone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.fairledger.standalone.EmbeddedPostgresServer.Durability;
import io.fairledger.testsupport.Processes;

/**
 * The embedded PostgreSQL on a real data directory: a server left running by a crashed owner is found and stopped
 * before a new one starts, with the data kept; a pid file naming some other process is not followed; a server a live
 * process holds is never touched; fsync is on unless asked otherwise.
 */
class EmbeddedPostgresServerTest {

    private Path dir;

    @BeforeEach
    void createDirectory() throws Exception {
        dir = Files.createTempDirectory("fairledger-test-orphan");
    }

    @AfterEach
    void deleteDirectory() {
        Processes.deleteTree(dir);
    }

    @Test
    void aPostgresLeftRunningByACrashedServerIsStoppedAndItsDataKept() throws Exception {
        Path pgCtl;
        try (EmbeddedPostgresServer first = EmbeddedPostgresServer.start(dir, 0)) {
            assertThat(query(first, "show fsync")).isEqualTo("on");
            assertThat(query(first, "show synchronous_commit")).isEqualTo("on");
            execute(first, "create table kept(n int); insert into kept values (42)");
            pgCtl = Path.of(Postmaster.find(dir).orElseThrow().command()).resolveSibling("pg_ctl");
        }
        // what a crashed server leaves: a postmaster on the directory that no live process owns
        int port = Processes.freePort();
        List<String> command = new ArrayList<>();
        if ("root".equals(System.getProperty("user.name"))) {
            // PostgreSQL refuses to run as root; the library runs it in a user namespace, and so does this test
            command.addAll(List.of("unshare", "-U"));
        }
        command.addAll(List.of(pgCtl.toString(), "-D", dir.toString(), "-l", dir.resolve("orphan.log").toString(),
                "-o", "-p " + port + " -c listen_addresses=127.0.0.1", "-w", "start"));
        Process pgCtlStart = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("pg_ctl.out").toFile()).start();
        assertThat(pgCtlStart.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(pgCtlStart.exitValue()).as("pg_ctl start: %s", Files.readString(dir.resolve("pg_ctl.out")))
                .isZero();
        Postmaster orphan = Postmaster.find(dir).orElseThrow();
        ProcessHandle orphanProcess = ProcessHandle.of(orphan.pid()).orElseThrow();
        assertThat(orphanProcess.parent().map(ProcessHandle::pid)).as("not a child of this JVM")
                .isNotEqualTo(Optional.of(ProcessHandle.current().pid()));

        try (EmbeddedPostgresServer second = EmbeddedPostgresServer.start(dir, 0)) {
            assertThat(orphan.isAlive()).as("the orphan is stopped").isFalse();
            assertThat(query(second, "select n from kept")).isEqualTo("42");
        }
        assertThat(Postmaster.find(dir)).as("nothing left running after close").isEmpty();
    }

    @Test
    void aPidFileNamingAnotherLiveProcessIsRemovedAndThatProcessLeftAlone() throws Exception {
        EmbeddedPostgresServer.start(dir, 0, Durability.NO_FSYNC).close();
        Process unrelated = new ProcessBuilder("sleep", "600").start();
        try {
            // a crash, then the pid reused by something else: PostgreSQL alone would refuse to start
            Files.writeString(dir.resolve("postmaster.pid"), unrelated.pid() + "\n" + dir + "\n");
            try (EmbeddedPostgresServer server = EmbeddedPostgresServer.start(dir, 0, Durability.NO_FSYNC)) {
                assertThat(query(server, "show fsync")).isEqualTo("off");
                assertThat(query(server, "show synchronous_commit")).isEqualTo("off");
                assertThat(Postmaster.find(dir).orElseThrow().pid()).isNotEqualTo(unrelated.pid());
            }
            assertThat(unrelated.isAlive()).as("the unrelated process").isTrue();
        } finally {
            unrelated.destroyForcibly().waitFor();
        }
    }

    @Test
    void aPostgresHeldByALiveProcessIsNeverStopped() throws Exception {
        try (EmbeddedPostgresServer running = EmbeddedPostgresServer.start(dir, 0, Durability.NO_FSYNC)) {
            assertThatThrownBy(() -> EmbeddedPostgresServer.start(dir, 0, Durability.NO_FSYNC))
                    .isInstanceOf(StandaloneStartupException.class)
                    .hasMessageContaining("belongs to a running process");
            assertThat(query(running, "select 1")).isEqualTo("1");
        }
    }

    @Test
    void aSecondLockOnADataDirectoryIsRefusedWithTheOwnersPid() {
        try (DataDirectoryLock held = DataDirectoryLock.acquire(dir)) {
            assertThatThrownBy(() -> DataDirectoryLock.acquire(dir)).isInstanceOf(StandaloneStartupException.class)
                    .hasMessageContaining("is in use by a running fairledger server (pid "
                            + ProcessHandle.current().pid() + ")");
        }
        DataDirectoryLock.acquire(dir).close();
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
