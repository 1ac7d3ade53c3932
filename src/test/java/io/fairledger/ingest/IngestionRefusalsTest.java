package io.fairledger.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import io.fairledger.cli.DlqCommand;
import io.fairledger.ingest.schema.EventDecoder;
import io.fairledger.ingest.schema.EventTopics;
import io.fairledger.tenancy.SettingsLimits;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;
import io.fairledger.testsupport.TestClusters;

/**
 * What the attack run found blocking ingestion: registrations whose text PostgreSQL cannot store (a NUL in a cluster
 * or tenant id) are dead letters while the events beside them are stored; a record the database refuses every time for
 * a reason of no known kind is a dead letter after a few tries, once; a queue deeper or longer than a tenant may be
 * (a 1,900-level queue) is a dead letter naming the limit; the backlog counts partitions no member holds;
 * and {@code fairledger dlq} never prints a terminal escape.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class IngestionRefusalsTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Inject
    DataSource dataSource;

    @Inject
    BatchStore store;

    @Test
    void nulInARegistrationIsADeadLetterAndTheEventsBesideItAreStored() throws Exception {
        String marker = UUID.randomUUID().toString();
        String cluster = "nul-bystander-" + marker.substring(0, 8);
        TestClusters.registerHourlyUsage(cluster);
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            registration(producer, """
                    {"type":"ClusterRegistered","eventId":"%s-c","cluster":"evil\\u0000c",
                     "eventTime":"2026-11-22T10:00:00Z","resourceManager":"MESOS","name":"x"}""".formatted(marker));
            registration(producer, """
                    {"type":"TenantRegistered","eventId":"%s-t","cluster":"%s",
                     "eventTime":"2026-11-22T10:00:00Z","tenant":"root.\\u0000","weight":1}""".formatted(marker,
                    cluster));
            for (int i = 0; i < 5; i++) {
                event(producer, container(cluster, marker + "-e" + i, "c" + i));
            }
            producer.flush();
        }
        List<ConsumerRecord<byte[], byte[]>> letters = letters(marker, 2);
        assertThat(letters).extracting(IngestionRefusalsTest::reason).containsExactlyInAnyOrder(
                "invalid: cluster contains the control character U+0000 at index 4 (NUL cannot be stored)",
                "invalid: tenant contains the control character U+0000 at index 5 (NUL cannot be stored)");
        Awaitility.await().atMost(60, TimeUnit.SECONDS)
                .untilAsserted(() -> assertThat(count("SELECT count(DISTINCT event_id) FROM ledger_fact WHERE "
                        + "event_id LIKE '" + marker + "-e%'")).isEqualTo(5));
    }

    @Test
    void queuesBeyondTheTenantLimitsAreDeadLettersAndTheEventBesideThemIsStored() throws Exception {
        String marker = UUID.randomUUID().toString();
        String cluster = "deep-queues-" + marker.substring(0, 8);
        TestClusters.registerHourlyUsage(cluster);
        String attack = "root" + ".q".repeat(1_900);
        String deep = "root" + ".q".repeat(SettingsLimits.MAX_DEPTH + 1);
        String longName = "root." + "q".repeat(SettingsLimits.MAX_PATH_LENGTH);
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            event(producer, container(cluster, marker + "-attack", "a", attack));
            event(producer, container(cluster, marker + "-deep", "d", deep));
            event(producer, container(cluster, marker + "-long", "l", longName));
            event(producer, container(cluster, marker + "-good", "g"));
            producer.flush();
        }
        List<ConsumerRecord<byte[], byte[]>> letters = letters(marker, 3);
        assertThat(letters).extracting(IngestionRefusalsTest::reason).containsExactlyInAnyOrder(
                "invalid-field: queue: must be at most 1024 characters, got " + attack.length(),
                "invalid-field: queue: must be at most 16 levels below the root, got 17",
                "invalid-field: queue: must be at most 1024 characters, got " + longName.length());
        Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(() -> assertThat(count(
                "SELECT count(DISTINCT event_id) FROM ledger_fact WHERE event_id LIKE '" + marker + "-%'"))
                .isEqualTo(1));
        assertThat(count("SELECT count(*) FROM ledger_fact WHERE event_id = '" + marker + "-good'")).isPositive();
    }

    @Test
    void aRecordTheDatabaseFailsEveryTimeIsDeadLetteredOnceAfterItsTries() throws Exception {
        String marker = UUID.randomUUID().toString();
        String cluster = "refused-" + marker.substring(0, 8);
        String poison = marker + "-poison";
        TestClusters.registerHourlyUsage(cluster);
        // a trigger's exception (SQLSTATE P0001) is of no known kind: neither the data's nor the database away
        sql("CREATE FUNCTION test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                + "IF NEW.event_id = '" + poison + "' THEN RAISE EXCEPTION 'refused by the test'; END IF; "
                + "RETURN NEW; END $$");
        sql("CREATE TRIGGER test_refuse BEFORE INSERT ON ledger_fact FOR EACH ROW EXECUTE FUNCTION test_refuse()");
        try {
            try (KafkaProducer<byte[], byte[]> producer = producer()) {
                event(producer, container(cluster, marker + "-before", "b"));
                event(producer, container(cluster, poison, "p"));
                event(producer, container(cluster, marker + "-after", "a"));
                producer.flush();
            }
            List<ConsumerRecord<byte[], byte[]>> letters = letters(marker, 1);
            assertThat(reason(letters.get(0))).startsWith("store-rejected: failed " + StoreFailures.TRIES
                    + " times: SQLSTATE P0001: ERROR: refused by the test");
            Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(() -> assertThat(count(
                    "SELECT count(DISTINCT event_id) FROM ledger_fact WHERE event_id IN ('" + marker + "-before', '"
                            + marker + "-after')"))
                    .isEqualTo(2));
            // a marker record after it: once it is stored, every letter of the refused record has been sent
            try (KafkaProducer<byte[], byte[]> producer = producer()) {
                event(producer, container(cluster, marker + "-later", "l"));
            }
            Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(() -> assertThat(count(
                    "SELECT count(*) FROM ledger_fact WHERE event_id = '" + marker + "-later'")).isPositive());
            assertThat(letters(marker, 1)).as("dead-lettered once").hasSize(1);
        } finally {
            sql("DROP TRIGGER IF EXISTS test_refuse ON ledger_fact");
            sql("DROP FUNCTION IF EXISTS test_refuse()");
        }
    }

    @Test
    void theBacklogCountsPartitionsNoMemberHolds() throws Exception {
        String topic = "backlog-" + UUID.randomUUID();
        String group = "backlog-group-" + UUID.randomUUID();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, 3, (short) 1))).all().get();
            try (KafkaProducer<byte[], byte[]> producer = producer()) {
                for (int partition = 0; partition < 3; partition++) {
                    for (int i = 0; i < 4; i++) {
                        producer.send(new ProducerRecord<>(topic, partition, null, new byte[]{1})).get();
                    }
                }
            }
            // no consumer of this group runs: nothing is assigned; partition 0 stored to its end, 1 halfway, 2 never
            store.commit(group, List.of(), List.of(), Map.of(new TopicPartition(topic, 0), 4L,
                    new TopicPartition(topic, 1), 2L));
            IngestionBacklog.Position position = IngestionBacklog.position(admin, store, group, List.of(topic));
            assertThat(position.waiting()).isEqualTo(0 + 2 + 4);
            assertThat(position.stored()).isEqualTo(6);
        }
    }

    @Test
    void dlqPrintsNoTerminalEscape() throws Exception {
        String marker = UUID.randomUUID().toString();
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            ProducerRecord<byte[], byte[]> letter = new ProducerRecord<>(EventTopics.DEAD_LETTERS, null,
                    marker.getBytes(StandardCharsets.UTF_8));
            letter.headers().add(EventTopics.REASON_HEADER,
                    ("invalid: " + marker + " \u001B[31mred\u001B[0m").getBytes(StandardCharsets.UTF_8));
            producer.send(letter).get();
        }
        StringWriter out = new StringWriter();
        int exit = new CommandLine(new DlqCommand()).setOut(new PrintWriter(out))
                .execute("--bootstrap-servers", bootstrap, "--reason", marker);
        assertThat(exit).isZero();
        assertThat(out.toString()).contains(marker + " \\u001B[31mred\\u001B[0m").doesNotContain("\u001B");
    }

    private List<ConsumerRecord<byte[], byte[]>> letters(String marker, int expected) {
        List<ConsumerRecord<byte[], byte[]>> letters = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, "dlq-reader-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(EventTopics.DEAD_LETTERS));
            Awaitility.await().atMost(90, TimeUnit.SECONDS).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> {
                    if (new String(r.value(), StandardCharsets.UTF_8).contains(marker)) {
                        letters.add(r);
                    }
                });
                return letters.size() >= expected;
            });
            // whatever else is there now (a second copy) is read too
            consumer.poll(Duration.ofSeconds(1)).forEach(r -> {
                if (new String(r.value(), StandardCharsets.UTF_8).contains(marker)) {
                    letters.add(r);
                }
            });
        }
        return letters;
    }

    private static String reason(ConsumerRecord<byte[], byte[]> record) {
        return new String(record.headers().lastHeader(EventTopics.REASON_HEADER).value(), StandardCharsets.UTF_8);
    }

    private KafkaProducer<byte[], byte[]> producer() {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
                new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static void registration(KafkaProducer<byte[], byte[]> producer, String json) throws Exception {
        producer.send(new ProducerRecord<>(EventTopics.REGISTRATIONS, "r".getBytes(StandardCharsets.UTF_8),
                json.getBytes(StandardCharsets.UTF_8))).get();
    }

    private static void event(KafkaProducer<byte[], byte[]> producer, String[] clusterAndLine) throws Exception {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(EventTopics.YARN_CONTAINERS,
                clusterAndLine[0].getBytes(StandardCharsets.UTF_8),
                clusterAndLine[1].getBytes(StandardCharsets.UTF_8));
        record.headers().add(EventDecoder.CONTENT_TYPE_HEADER, EventDecoder.JSON.getBytes(StandardCharsets.UTF_8));
        producer.send(record).get();
    }

    private static String[] container(String cluster, String eventId, String containerId) {
        return container(cluster, eventId, containerId, "root.a");
    }

    private static String[] container(String cluster, String eventId, String containerId, String queue) {
        return new String[]{cluster, ("{\"type\":\"YarnContainerEvent\",\"eventId\":\"%s\",\"cluster\":\"%s\","
                + "\"eventTime\":\"2026-11-20T00:30:00Z\",\"applicationId\":\"application_1_0001\",\"attemptId\":"
                + "\"appattempt_1_0001_01\",\"containerId\":\"%s\",\"queue\":\"%s\",\"user\":\"u\","
                + "\"allocatedMemoryMb\":0,\"allocatedVcores\":1,\"node\":\"n1\",\"state\":\"COMPLETE\","
                + "\"createdTime\":\"2026-11-20T00:00:00Z\",\"finishedTime\":\"2026-11-20T00:30:00Z\"}")
                .formatted(eventId, cluster, containerId, queue)};
    }

    private void sql(String statement) throws Exception {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            st.execute(statement);
        }
    }

    private long count(String query) throws Exception {
        try (Connection c = dataSource.getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(query)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
