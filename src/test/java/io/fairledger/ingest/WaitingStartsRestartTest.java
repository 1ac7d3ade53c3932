package io.fairledger.ingest;

import static io.fairledger.ingest.ArrivalOrderTest.account;
import static io.fairledger.ingest.ArrivalOrderTest.demand;
import static io.fairledger.ingest.ArrivalOrderTest.line;
import static io.fairledger.ingest.ArrivalOrderTest.mesos;
import static io.fairledger.ingest.IntakeOverKafkaTest.MESOS_SETTINGS;
import static io.fairledger.ingest.IntakeOverKafkaTest.deadLetterReasons;
import static io.fairledger.ingest.IntakeOverKafkaTest.of;
import static io.fairledger.ingest.IntakeOverKafkaTest.register;
import static io.fairledger.ingest.IntakeOverKafkaTest.statements;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.fairledger.ingest.schema.EventTopics;
import io.fairledger.testsupport.EventPublisher;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;
import io.fairledger.testsupport.ServedStatements;

/**
 * A Mesos TASK_RUNNING without resources, consumed and committed, survives a restart of the consumer (its memory
 * gone, its partitions revoked and assigned again): its task's TASK_ADDED after the restart releases it and the task
 * counts from the update's time, as in {@code fairledger account}; one whose task never states its resources is a dead
 * letter once the watermark passes it by twice the lateness, with {@code account}'s reason, and only once across a
 * second restart.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class WaitingStartsRestartTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Inject
    EventConsumer consumer;

    @Inject
    DataSource dataSource;

    @Test
    void aWaitingStartReleasedAfterARestartCountsFromItsOwnTimeAsInAccount() throws Exception {
        String cluster = "waiting-restart";
        register(cluster, "MESOS", MESOS_SETTINGS);
        String running = of(cluster, mesos("t1-running", "00:00:05", "TASK_RUNNING", null));
        // the task's resources are first stated ten minutes after the update, within the lateness (PT1H)
        String added = of(cluster, added("00:10:00"));
        String finished = of(cluster, mesos("t1-finished", "01:00:00", "TASK_FINISHED", null));
        String marker = of(cluster, demand("marker", "01:00:00", "marker", 0));

        publish(EventTopics.MESOS_TASKS, cluster, running);
        awaitWaiting(cluster, 1);
        restart();
        publish(EventTopics.MESOS_TASKS, cluster, added, finished);
        publish(EventTopics.DEMAND, cluster, marker);

        JsonNode offline = account(List.of(running, added, finished, marker), "2026-11-20T01:00:00Z",
                MESOS_SETTINGS, cluster).statements();
        assertThat(line(offline, 0, "a").get("vcoreSeconds").decimalValue()).as("1.5 cpus from 00:00:05")
                .isEqualByComparingTo("5392.5");
        Awaitility.await().atMost(60, TimeUnit.SECONDS).pollInterval(500, TimeUnit.MILLISECONDS)
                .untilAsserted(() -> assertThat(ServedStatements.withoutChain(statements(cluster, "01:00:00")))
                        .isEqualTo(offline));
        assertThat(waiting(cluster)).isZero();
        assertThat(deadLetterReasons(bootstrap, cluster)).isEmpty();
    }

    @Test
    void aStartWhoseTaskNeverStatesItsResourcesIsADeadLetterOnceAcrossRestarts() throws Exception {
        String cluster = "waiting-expires";
        register(cluster, "MESOS", MESOS_SETTINGS);
        String running = of(cluster, mesos("t1-running", "00:00:05", "TASK_RUNNING", null));
        String atTwice = of(cluster, demand("at-twice", "02:00:05", "marker", 0));
        String past = of(cluster, demand("past", "02:00:06", "marker", 0));
        String later = of(cluster, demand("later", "03:00:00", "marker", 0));

        publish(EventTopics.MESOS_TASKS, cluster, running);
        awaitWaiting(cluster, 1);
        restart();
        publish(EventTopics.DEMAND, cluster, atTwice);
        awaitCount("ledger_fact", cluster, 1);
        assertThat(waiting(cluster)).as("the watermark at the update's time plus twice the lateness").isOne();
        publish(EventTopics.DEMAND, cluster, past);
        awaitWaiting(cluster, 0);
        restart();
        publish(EventTopics.DEMAND, cluster, later);
        awaitCount("ledger_fact", cluster, 3);

        List<JsonNode> offline = account(List.of(running, atTwice, past, later), "2026-11-20T03:00:00Z",
                MESOS_SETTINGS, cluster).deadLetters();
        assertThat(offline).hasSize(1);
        assertThat(deadLetterReasons(bootstrap, cluster)).containsExactly(offline.get(0).get("reason").asText());
    }

    /** An operator TASK_ADDED of task f1/t1 with 1.5 cpus and 1024 MB in role {@code a}. */
    private static String added(String time) {
        return ("{\"cluster\":\"c\",\"eventTime\":\"2026-11-20T%sZ\",\"type\":\"TASK_ADDED\",\"task_added\":{\"task\":"
                + "{\"task_id\":{\"value\":\"t1\"},\"framework_id\":{\"value\":\"f1\"},\"state\":\"TASK_STAGING\","
                + "\"resources\":[{\"name\":\"cpus\",\"type\":\"SCALAR\",\"scalar\":{\"value\":1.5},\"role\":\"a\"},"
                + "{\"name\":\"mem\",\"type\":\"SCALAR\",\"scalar\":{\"value\":1024},\"role\":\"a\"}]}}}")
                .formatted(time);
    }

    private void publish(String topic, String cluster, String... lines) {
        EventPublisher.publish(bootstrap, topic, cluster, List.of(lines));
    }

    /** Stops the consumer, which leaves its group, and starts a new one: nothing kept in memory survives. */
    private void restart() throws InterruptedException {
        consumer.stop(null);
        consumer.start(null);
    }

    private void awaitWaiting(String cluster, int count) {
        awaitCount("waiting_start", cluster, count);
    }

    /** Waits until {@code table} has {@code count} rows of {@code cluster}: the batch that brings it is committed. */
    private void awaitCount(String table, String cluster, int count) {
        Awaitility.await().atMost(60, TimeUnit.SECONDS).pollInterval(200, TimeUnit.MILLISECONDS)
                .until(() -> count(table, cluster) == count);
    }

    /** The stored waiting starts of {@code cluster}. */
    private int waiting(String cluster) throws SQLException {
        return count("waiting_start", cluster);
    }

    private int count(String table, String cluster) throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM " + table
                        + " WHERE cluster_id = ?")) {
            ps.setString(1, cluster);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
