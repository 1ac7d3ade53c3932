package io.fairledger.ingest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import io.fairledger.cli.DlqCommand;
import io.fairledger.ingest.schema.EventDecoder;
import io.fairledger.ingest.schema.EventTopics;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;
import io.fairledger.testsupport.TestClusters;

/**
 * A record the database refuses at commit (here: a CHECK constraint the test adds, SQLSTATE 23514; and an id with
 * U+0000, which PostgreSQL text cannot hold, SQLSTATE 22021, unless validation already turned it away) is isolated from
 * its batch and dead-lettered with the database's reason, with its source position in the headers; the rest of the
 * batch and the other cluster go on, the offsets reach Kafka's consumer group, and {@code fairledger dlq --redrive}
 * sends the refused record back once the cause is gone.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class PoisonRecordTest {

    private static final String POISON = "poison-event-" + System.nanoTime();

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @ConfigProperty(name = "kafka.group.id")
    String groupId;

    @Inject
    DataSource dataSource;

    @Test
    void aRecordTheDatabaseRefusesIsDeadLetteredAndTheRestGoesOn() throws Exception {
        TestClusters.registerHourlyUsage("poison-yarn");
        TestClusters.registerHourlyUsage("bystander-yarn");
        sql("ALTER TABLE ledger_fact ADD CONSTRAINT test_poison CHECK (event_id <> '" + POISON + "') NOT VALID");
        RecordMetadata poison;
        RecordMetadata nul;
        try {
            try (KafkaProducer<byte[], byte[]> producer = producer()) {
                send(producer, container("poison-yarn", "p-c1", "p-c1", "00:00:00", "00:30:00"));
                send(producer, container("bystander-yarn", "b-c1", "b-c1", "00:00:00", "00:30:00"));
                poison = send(producer, container("poison-yarn", POISON, "p-c2", "00:00:00", "01:00:00"));
                nul = send(producer, container("poison-yarn", "p-nul", "p-c3\u0000x", "00:00:00", "01:00:00"));
                send(producer, container("poison-yarn", "p-c4", "p-c4", "03:00:00", "03:00:01"));
                send(producer, container("bystander-yarn", "b-c2", "b-c2", "03:00:00", "03:00:01"));
                producer.flush();
            }
            for (String cluster : new String[]{"poison-yarn", "bystander-yarn"}) {
                Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(() -> given()
                        .queryParam("until", "2026-11-20T01:00:00Z")
                        .get("/api/v1/admin/clusters/" + cluster + "/statements").then().statusCode(200)
                        .body("[0].lines[0].charge", equalTo(0.5f)));
            }
            String listed = dlq("--reason", "test_poison");
            assertThat(listed).contains("1 dead letter(s)").contains("store-rejected")
                    .contains("SQLSTATE 23514").contains("check constraint \"test_poison\"")
                    .contains("from " + poison.topic() + "-" + poison.partition() + "@" + poison.offset())
                    .contains(java.time.Instant.ofEpochMilli(poison.timestamp()).toString());
            java.util.regex.Matcher at = java.util.regex.Pattern.compile("\\n  (\\d+@\\d+)  from ").matcher(listed);
            assertThat(at.find()).as(listed).isTrue();
            assertThat(dlq("--at", at.group(1))).as("a position selects its letter").startsWith("1 dead letter(s)")
                    .contains(at.group(1) + "  from " + poison.topic());
            String nulLetter = dlq("--reason", "");
            assertThat(nulLetter).as("the NUL id is dead-lettered, by validation or by the database")
                    .contains("from " + nul.topic() + "-" + nul.partition() + "@" + nul.offset());
            assertThat(stored(POISON)).isZero();
            Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(() -> assertThat(
                    kafkaOffset(new TopicPartition(poison.topic(), poison.partition())))
                    .as("the stored offsets reach Kafka's consumer group").isGreaterThan(poison.offset()));
        } finally {
            sql("ALTER TABLE ledger_fact DROP CONSTRAINT IF EXISTS test_poison");
        }

        String redriven = dlq("--reason", "test_poison", "--redrive");
        assertThat(redriven).contains("re-drove 1 dead letter(s) to their source topics; 0 failed");
        Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(() -> assertThat(stored(POISON)).isPositive());
    }

    private String dlq(String... args) {
        StringWriter out = new StringWriter();
        CommandLine command = new CommandLine(new DlqCommand()).setOut(new PrintWriter(out));
        String[] all = new String[args.length + 2];
        all[0] = "--bootstrap-servers";
        all[1] = bootstrap;
        System.arraycopy(args, 0, all, 2, args.length);
        assertThat(command.execute(all)).as(out.toString()).isZero();
        return out.toString();
    }

    private long kafkaOffset(TopicPartition partition) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            OffsetAndMetadata committed = admin.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata()
                    .get().get(partition);
            return committed == null ? -1 : committed.offset();
        }
    }

    private int stored(String eventId) throws Exception {
        try (Connection c = dataSource.getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM ledger_fact WHERE event_id = '" + eventId + "'")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private void sql(String statement) throws Exception {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            st.execute(statement);
        }
    }

    private KafkaProducer<byte[], byte[]> producer() {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
                new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static RecordMetadata send(KafkaProducer<byte[], byte[]> producer, String[] clusterAndLine)
            throws Exception {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(EventTopics.YARN_CONTAINERS,
                clusterAndLine[0].getBytes(StandardCharsets.UTF_8),
                clusterAndLine[1].getBytes(StandardCharsets.UTF_8));
        record.headers().add(EventDecoder.CONTENT_TYPE_HEADER, EventDecoder.JSON.getBytes(StandardCharsets.UTF_8));
        return producer.send(record).get();
    }

    private static String[] container(String cluster, String eventId, String containerId, String from, String to) {
        String json = new com.fasterxml.jackson.databind.node.TextNode(containerId).toString();
        return new String[]{cluster, ("{\"type\":\"YarnContainerEvent\",\"eventId\":\"%s\",\"cluster\":\"%s\","
                + "\"eventTime\":\"2026-11-20T%sZ\",\"applicationId\":\"application_1_0001\",\"attemptId\":"
                + "\"appattempt_1_0001_01\",\"containerId\":%s,\"queue\":\"root.a\",\"user\":\"u\","
                + "\"allocatedMemoryMb\":0,\"allocatedVcores\":1,\"node\":\"n1\",\"state\":\"COMPLETE\","
                + "\"createdTime\":\"2026-11-20T%sZ\",\"finishedTime\":\"2026-11-20T%sZ\"}")
                .formatted(eventId, cluster, to, json, from, to)};
    }
}
