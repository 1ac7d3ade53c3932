package io.fairledger.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.fairledger.testsupport.KafkaDependency;
import io.fairledger.testsupport.RealDependency;

/**
 * Backup and restore as docs/operations.md tells an operator: {@code pg_dump} of a running server's database while it
 * ingests, {@code pg_restore} into a fresh PostgreSQL, a new server on the restored database and the same Kafka. The
 * Kafka offsets are in the database, so the new server reads on from where the dump stood: its statements equal
 * {@code fairledger account} on all the events, nothing lost and nothing counted twice.
 */
class BackupRestoreIT {

    private static final String CLUSTER = "it-backup";

    private static DumpablePostgres original;
    private static DumpablePostgres restored;
    private static RealDependency.Running kafka;

    @BeforeAll
    static void start() {
        original = DumpablePostgres.start();
        restored = DumpablePostgres.start();
        kafka = KafkaDependency.start();
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable dependency : new AutoCloseable[]{kafka, original, restored}) {
            try {
                if (dependency != null) {
                    dependency.close();
                }
            } catch (Exception e) {
                System.out.println("[fairledger-it] could not stop " + dependency + ": " + e);
            }
        }
    }

    @Test
    void aServerOnTheRestoredDumpResumesWithNothingLostOrCountedTwice() throws Exception {
        String bootstrap = kafka.config().get("kafka.bootstrap.servers");
        LedgerScenario before = new LedgerScenario(CLUSTER, original.config(), bootstrap);
        LedgerScenario after = new LedgerScenario(CLUSTER, restored.config(), bootstrap);
        List<String> events = before.events(8);
        int third = events.size() / 3;
        String until = "2026-11-20T08:00:00Z";
        JsonNode offline = LedgerScenario.account(events, until);
        assertThat(offline.size()).as("periods 0 to 7").isEqualTo(8);
        before.createTopic();
        Path dump = Files.createTempFile("fairledger-it-backup", ".dump");

        try (ServerProcess first = ServerProcess.start(before.serverEnv(), "serve")) {
            before.register(first);
            before.publish(events.subList(0, third));
            Awaitility.await("a period closed and a checkpoint stored").atMost(120, TimeUnit.SECONDS)
                    .pollInterval(1, TimeUnit.SECONDS)
                    .until(() -> before.closedPeriods() > 0 && before.checkpoints() > 0);
            // the second third goes out as the dump is taken: the dump holds whatever the server had committed
            before.publish(events.subList(third, 2 * third));
            original.dump(dump, "custom");
            System.out.println("[fairledger-it] pg_dump of a running server: " + Files.size(dump) + " bytes");
            assertThat(first.kill()).as("the first server's exit status: SIGKILL").isEqualTo(128 + 9);
        }

        restored.restore(dump);
        try (ServerProcess second = ServerProcess.start(after.serverEnv(), "serve")) {
            before.publish(events.subList(2 * third, events.size()));
            Awaitility.await("periods 0 to 7 closed").atMost(180, TimeUnit.SECONDS).pollInterval(1, TimeUnit.SECONDS)
                    .until(() -> after.closedPeriods() == 8);
            JsonNode served = LedgerScenario.JSON.readTree(after.statements(second, until));
            assertThat(ServerProcess.withoutChain(served)).isEqualTo(offline);
        }
    }
}
