package io.fairledger.ingest;

import static io.fairledger.ingest.ArrivalOrderTest.SETTINGS;
import static io.fairledger.ingest.ArrivalOrderTest.account;
import static io.fairledger.ingest.ArrivalOrderTest.demand;
import static io.fairledger.ingest.ArrivalOrderTest.line;
import static io.fairledger.ingest.ArrivalOrderTest.mesos;
import static io.fairledger.ingest.ArrivalOrderTest.yarn;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.fairledger.ingest.schema.EventTopics;
import io.fairledger.testsupport.EventPublisher;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;
import io.fairledger.testsupport.ServedStatements;

/**
 * The cases of {@link ArrivalOrderTest} on the real server, through a real Kafka into PostgreSQL: the later report of
 * a task's start stored first and the earlier one replacing it, simultaneous demand reports of two applications, the
 * Mesos examples (a TASK_RUNNING without resources among them), and the records refused with a reason (a NUL in an
 * id, an event before the cluster's registration, a cluster name with a NUL over HTTP).
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class IntakeOverKafkaTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** {@code SETTINGS} with the tenants as Mesos roles. */
    static final String MESOS_SETTINGS = SETTINGS.replace("root.a", "a").replace("root.b", "b");

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void aYarnAllocationStoredAfterTheRunningEventMovesTheStartEarlier() throws Exception {
        String cluster = "order-yarn";
        register(cluster, "YARN", SETTINGS);
        String allocated = of(cluster,
                yarn("c1-allocated", "00:00:00", "ALLOCATED", "\"createdTime\":\"2026-11-20T00:00:00Z\""));
        String running = of(cluster, yarn("c1-running", "00:00:05", "RUNNING", null));
        String complete = of(cluster,
                yarn("c1-complete", "01:00:00", "COMPLETE", "\"finishedTime\":\"2026-11-20T01:00:00Z\""));

        EventPublisher.publish(bootstrap, EventTopics.YARN_CONTAINERS, cluster, List.of(running));
        String ended = endOfPeriod(cluster, "2026-11-20T01:00:00Z");
        awaitVcoreSeconds(cluster, "01:00:00", 0, "a", "3595");
        EventPublisher.publish(bootstrap, EventTopics.YARN_CONTAINERS, cluster, List.of(allocated, complete));
        awaitVcoreSeconds(cluster, "01:00:00", 0, "a", "3600");

        assertThat(ServedStatements.withoutChain(statements(cluster, "01:00:00")))
                .isEqualTo(account(List.of(allocated, running, complete, ended),
                        "2026-11-20T01:00:00Z", SETTINGS, cluster).statements());
    }

    @Test
    void aMesosStagingStoredAfterTheRunningUpdateMovesTheStartEarlier() {
        String cluster = "order-mesos";
        register(cluster, "MESOS", MESOS_SETTINGS);
        String staging = of(cluster, mesos("t1-staging", "00:00:00", "TASK_STAGING", "\"cpus\":1.5,\"memMb\":1024"));
        String running = of(cluster, mesos("t1-running", "00:00:05", "TASK_RUNNING", "\"cpus\":1.5,\"memMb\":1024"));
        String finished = of(cluster, mesos("t1-finished", "01:00:00", "TASK_FINISHED", null));

        EventPublisher.publish(bootstrap, EventTopics.MESOS_TASKS, cluster, List.of(running));
        endOfPeriod(cluster, "2026-11-20T01:00:00Z");
        awaitVcoreSeconds(cluster, "01:00:00", 0, "a", "5392.5");
        EventPublisher.publish(bootstrap, EventTopics.MESOS_TASKS, cluster, List.of(staging, finished));
        awaitVcoreSeconds(cluster, "01:00:00", 0, "a", "5400");
    }

    @Test
    void simultaneousDemandReportsOfTwoApplicationsAllCount() throws Exception {
        String cluster = "demand-yarn";
        register(cluster, "YARN", SETTINGS);
        List<String> reports = new ArrayList<>(List.of(of(cluster, demand("x1-0030", "00:30:00", "x1", 2)),
                of(cluster, demand("x2-0030", "00:30:00", "x2", 3)),
                of(cluster, demand("x1-0130", "01:30:00", "x1", 0)),
                of(cluster, demand("x2-0130", "01:30:00", "x2", 0))));
        String holds = of(cluster, yarn("c1-complete", "04:00:00", "COMPLETE",
                "\"createdTime\":\"2026-11-20T00:00:00Z\",\"finishedTime\":\"2026-11-20T04:00:00Z\""));
        Collections.reverse(reports);

        EventPublisher.publish(bootstrap, EventTopics.DEMAND, cluster, reports);
        EventPublisher.publish(bootstrap, EventTopics.YARN_CONTAINERS, cluster, List.of(holds));

        Awaitility.await().atMost(60, TimeUnit.SECONDS).pollInterval(500, TimeUnit.MILLISECONDS)
                .untilAsserted(() -> {
                    JsonNode statements = statements(cluster, "04:00:00");
                    assertThat(statements.size()).isEqualTo(4);
                    assertThat(line(statements, 2, "a").get("entitled").decimalValue()).isEqualByComparingTo("0.1");
                    assertThat(line(statements, 3, "a").get("entitled").decimalValue()).isEqualByComparingTo("0.1");
                });
        List<String> all = new ArrayList<>(reports);
        all.add(holds);
        assertThat(ServedStatements.withoutChain(statements(cluster, "04:00:00")))
                .isEqualTo(account(all, "2026-11-20T04:00:00Z", SETTINGS, cluster).statements());
    }

    @Test
    void theMesosExamplesAreAllAcceptedTheRunningUpdateWithoutResourcesAmongThem() throws Exception {
        String cluster = "prod-mesos";
        String settings = MESOS_SETTINGS.replace("2026-11-20T00:00:00Z", "2026-11-21T00:00:00Z").replace("\"a\"",
                "\"analytics\"");
        register(cluster, "MESOS", settings);
        List<String> examples = Files.readAllLines(Path.of("kafka-schemas/examples/fairledger.mesos.tasks.jsonl"));

        EventPublisher.publish(bootstrap, EventTopics.MESOS_TASKS, cluster, examples);
        List<String> all = new ArrayList<>(examples);
        // the task topic's own watermark closes period 8 (a marker on another topic would not: the task source holds
        // periods open, docs/accounting.md, "Per-source watermarks"): a task starting at 10:00, in period 10
        String marker = examples.get(0).replace("mesos-t1-running", "mesos-marker-running").replace("etl-42",
                "marker-1").replace("2026-11-21T09:00:00Z", "2026-11-21T10:00:00Z");
        EventPublisher.publish(bootstrap, EventTopics.MESOS_TASKS, cluster, List.of(marker));
        all.add(marker);

        Awaitility.await().atMost(60, TimeUnit.SECONDS).pollInterval(500, TimeUnit.MILLISECONDS)
                .untilAsserted(() -> assertThat(line(statements(cluster, "2026-11-21T10:00:00Z"), 9, "analytics")
                        .get("vcoreSeconds").decimalValue()).isEqualByComparingTo("8400"));
        assertThat(deadLetterReasons(cluster)).isEmpty();
        JsonNode offline = account(all, "2026-11-21T10:00:00Z", settings, cluster).statements();
        Awaitility.await().atMost(60, TimeUnit.SECONDS).pollInterval(500, TimeUnit.MILLISECONDS)
                .untilAsserted(() -> assertThat(ServedStatements.withoutChain(statements(cluster,
                        "2026-11-21T10:00:00Z"))).isEqualTo(offline));
    }

    @Test
    void aNulInAnIdAndAnEventBeforeRegistrationAreDeadLettersWithTheirReasonsAndTheRestGoesOn() {
        String cluster = "text-yarn";
        register(cluster, "YARN", SETTINGS);
        String nul = of(cluster, yarn("nul", "00:10:00", "COMPLETE",
                "\"createdTime\":\"2026-11-20T00:00:00Z\",\"finishedTime\":\"2026-11-20T00:10:00Z\""))
                .replace("\"containerId\":\"container_1\"", "\"containerId\":\"container_\\u0000\"");
        String early = of(cluster, yarn("early", "00:00:00", "ALLOCATED", null)).replace("2026-11-20T00:00:00Z",
                "2026-11-19T23:00:00Z");
        String good = of(cluster, yarn("good", "00:30:00", "COMPLETE",
                "\"createdTime\":\"2026-11-20T00:00:00Z\",\"finishedTime\":\"2026-11-20T00:30:00Z\""));

        EventPublisher.publish(bootstrap, EventTopics.YARN_CONTAINERS, cluster, List.of(nul, early, good));
        endOfPeriod(cluster, "2026-11-20T01:00:00Z");

        awaitVcoreSeconds(cluster, "01:00:00", 0, "a", "1800");
        Awaitility.await().atMost(30, TimeUnit.SECONDS).untilAsserted(() -> assertThat(deadLetterReasons(cluster))
                .containsExactlyInAnyOrder("invalid-field: containerId: contains the control character U+0000 at "
                        + "index 10 (NUL cannot be stored)",
                        "before-registration: eventTime 2026-11-19T23:00:00Z is before cluster 'text-yarn' was "
                                + "registered (2026-11-20T00:00:00Z); its books start there"));
    }

    @Test
    void aClusterNameWithANulIsRefusedWith422() {
        given().contentType(ContentType.JSON)
                .body("{\"id\":\"nul-name\",\"name\":\"prod\\u0000\",\"resourceManager\":\"YARN\"}")
                .post("/api/v1/admin/clusters").then().statusCode(422)
                .body("detail", containsString("name: contains the control character U+0000"));
        given().get("/api/v1/admin/clusters/nul-name").then().statusCode(404);
    }

    static void register(String cluster, String resourceManager, String settings) {
        given().contentType(ContentType.JSON)
                .body("{\"id\":\"" + cluster + "\",\"resourceManager\":\"" + resourceManager + "\"}")
                .post("/api/v1/admin/clusters").then().statusCode(201);
        given().contentType(ContentType.JSON).body(settings)
                .put("/api/v1/admin/clusters/" + cluster + "/ledger-settings").then().statusCode(200);
    }

    /**
     * Publishes and returns a report that changes nothing (application {@code marker} of root.a has nothing pending) at
     * {@code at}: the server states the periods its facts have reached (docs/accounting.md), so a test that reads a
     * period before its last fact first brings the cluster's latest fact to the period's end.
     */
    private String endOfPeriod(String cluster, String at) {
        String marker = of(cluster, demand("marker-" + at, "00:00:00", "marker", 0)).replace("2026-11-20T00:00:00Z",
                at);
        EventPublisher.publish(bootstrap, EventTopics.DEMAND, cluster, List.of(marker));
        return marker;
    }

    /** {@code line} of the offline tests' cluster {@code c}, for {@code cluster}. */
    static String of(String cluster, String line) {
        return line.replace("\"cluster\":\"c\"", "\"cluster\":\"" + cluster + "\"");
    }

    static JsonNode statements(String cluster, String until) throws Exception {
        String instant = until.length() == 8 ? "2026-11-20T" + until + "Z" : until;
        return JSON.readTree(given().accept(ContentType.JSON).queryParam("until", instant)
                .get("/api/v1/admin/clusters/" + cluster + "/statements").then().statusCode(200).extract()
                .asString());
    }

    private static void awaitVcoreSeconds(String cluster, String until, int period, String tenant, String expected) {
        Awaitility.await().atMost(60, TimeUnit.SECONDS).pollInterval(500, TimeUnit.MILLISECONDS)
                .untilAsserted(() -> assertThat(line(statements(cluster, until), period, tenant).get("vcoreSeconds")
                        .decimalValue()).isEqualByComparingTo(expected));
    }

    /** The reasons of every dead letter of {@code cluster} (the record key) so far. */
    private List<String> deadLetterReasons(String cluster) {
        return deadLetterReasons(bootstrap, cluster);
    }

    /** The reasons of every dead letter of {@code cluster} (the record key) so far, read from {@code bootstrap}. */
    static List<String> deadLetterReasons(String bootstrap, String cluster) {
        List<String> reasons = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(EventTopics.DEAD_LETTERS).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    if (record.key() != null && cluster.equals(new String(record.key(), StandardCharsets.UTF_8))) {
                        Header reason = record.headers().lastHeader(EventTopics.REASON_HEADER);
                        reasons.add(new String(reason.value(), StandardCharsets.UTF_8));
                    }
                }
            }
        }
        return reasons;
    }
}
