package io.fairledger.ingest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.equalTo;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.smallrye.common.annotation.Identifier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import io.fairledger.cli.DlqCommand;
import io.fairledger.cli.ReplayCommand;
import io.fairledger.ingest.schema.EventTopics;
import io.fairledger.kafka.KafkaClientConfig;
import io.fairledger.kafka.KafkaConnectionCheck;
import io.fairledger.testsupport.PostgresResource;
import io.fairledger.testsupport.SecureKafkaResource;
import io.fairledger.testsupport.TestClusters;

/**
 * Against a real broker whose only client listener is SASL_SSL (PLAIN over TLS, a certificate made by the test): the
 * server, given the settings as {@code kafka.*} keys, ingests events that {@code replay --command-config} published,
 * dead-letters a bad one through the same settings, publishes an admission decision, commits its offsets to the group,
 * and {@code dlq --command-config} lists the dead letter; wrong credentials, a missing truststore or a plaintext client stop the consumer's startup
 * with a message naming the setting to fix.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = SecureKafkaResource.class, scope = TestResourceScope.RESTRICTED_TO_CLASS)
class SaslSslKafkaTest {

    private static final String CLUSTER = "sasl-ssl-yarn";

    @Inject
    @Identifier("default-kafka-broker")
    Map<String, Object> kafkaConfig;

    @Test
    void eventsFlowOverSaslSslWithTheOperatorsSettings() throws Exception {
        assertThat(kafkaConfig).containsEntry("security.protocol", "SASL_SSL").containsEntry("sasl.mechanism",
                "PLAIN");
        TestClusters.registerHourlyUsage(CLUSTER);

        Path dir = Files.createTempDirectory("fairledger-sasl-ssl");
        Path clientConfig = dir.resolve("client.properties");
        Properties settings = new Properties();
        kafkaConfig.forEach((key, value) -> settings.setProperty(key, value.toString()));
        try (var out = Files.newBufferedWriter(clientConfig)) {
            settings.store(out, "the server's own Kafka settings");
        }
        Path events = dir.resolve("events.jsonl");
        Files.write(events, List.of(container(CLUSTER, "s-c1", "00:00:00", "00:30:00"),
                container("sasl-ssl-unregistered", "s-x", "00:00:00", "00:30:00"),
                container(CLUSTER, "s-c2", "03:00:00", "03:00:01")));
        assertThat(run(new ReplayCommand(), "--events", events.toString(), "--command-config", clientConfig.toString()))
                .contains("sent 3 event(s)");

        Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(() -> given()
                .queryParam("until", "2026-11-20T01:00:00Z").get("/api/v1/admin/clusters/" + CLUSTER + "/statements")
                .then().statusCode(200).body("[0].lines[0].charge", equalTo(0.5f)));
        assertThat(run(new DlqCommand(), "--command-config", clientConfig.toString(), "--reason",
                "sasl-ssl-unregistered")).contains("1 dead letter(s)").contains("from " + EventTopics.YARN_CONTAINERS);
        given().contentType(ContentType.JSON).body("{\"id\":\"j1\",\"tenant\":\"root.a\",\"tasks\":2,"
                + "\"deadlineSeconds\":100,\"estimatedCpuSeconds\":50}").post("/api/v1/clusters/" + CLUSTER + "/jobs")
                .then().statusCode(201);
        Map<String, Object> reader = KafkaClientConfig.consumer(kafkaConfig, Map.of(),
                Map.of("group.id", "decisions-" + System.nanoTime(), "auto.offset.reset", "earliest"));
        try (KafkaConsumer<String, String> decisions = new KafkaConsumer<>(reader, new StringDeserializer(),
                new StringDeserializer())) {
            decisions.subscribe(List.of(EventTopics.ADMISSION_DECISIONS));
            List<String> published = new ArrayList<>();
            Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(() -> {
                decisions.poll(Duration.ofMillis(500)).forEach(r -> published.add(r.key() + " " + r.value()));
                assertThat(published).as("the decision publisher over SASL_SSL")
                        .anyMatch(d -> d.startsWith(CLUSTER + " ") && d.contains("\"jobId\":\"j1\""));
            });
        }
        try (Admin admin = Admin.create(KafkaClientConfig.admin(kafkaConfig))) {
            Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(() -> {
                Map<TopicPartition, OffsetAndMetadata> offsets = admin
                        .listConsumerGroupOffsets(kafkaConfig.get("group.id").toString())
                        .partitionsToOffsetAndMetadata().get();
                assertThat(offsets.keySet()).extracting(TopicPartition::topic).contains(EventTopics.YARN_CONTAINERS);
            });
        }
    }

    @Test
    void wrongSettingsStopTheConsumersStartupNamingTheSetting() {
        Map<String, Object> wrongPassword = new HashMap<>(kafkaConfig);
        wrongPassword.put("sasl.jaas.config", kafkaConfig.get("sasl.jaas.config").toString()
                .replace("password=\"", "password=\"not-"));
        EventConsumer consumer = new EventConsumer();
        consumer.kafkaConfig = wrongPassword;
        assertThatThrownBy(() -> consumer.start(null)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("refused the credentials")
                .hasMessageContaining("kafka.sasl.jaas.config (KAFKA_SASL_JAAS_CONFIG)");

        Map<String, Object> noTruststore = new HashMap<>(kafkaConfig);
        List<String> trust = new ArrayList<>(noTruststore.keySet());
        trust.removeIf(key -> !key.startsWith("ssl.truststore"));
        trust.forEach(noTruststore::remove);
        assertThat(KafkaConnectionCheck.problem(noTruststore)).contains("the TLS handshake failed")
                .contains("kafka.ssl.truststore.location (KAFKA_SSL_TRUSTSTORE_LOCATION)");

        Map<String, Object> plaintext = new HashMap<>(kafkaConfig);
        plaintext.put("security.protocol", "PLAINTEXT");
        plaintext.put("default.api.timeout.ms", "3000");
        plaintext.put("request.timeout.ms", "3000");
        assertThat(KafkaConnectionCheck.problem(plaintext)).contains("did not answer")
                .contains("kafka.security.protocol (KAFKA_SECURITY_PROTOCOL)");

        assertThat(KafkaConnectionCheck.problem(kafkaConfig)).as("the right settings").isNull();
    }

    @Test
    void replayWithWrongCredentialsSaysSoAndFails() throws Exception {
        Path dir = Files.createTempDirectory("fairledger-sasl-ssl-wrong");
        Properties settings = new Properties();
        kafkaConfig.forEach((key, value) -> settings.setProperty(key, value.toString()));
        settings.setProperty("sasl.jaas.config",
                settings.getProperty("sasl.jaas.config").replace("password=\"", "password=\"not-"));
        Path clientConfig = dir.resolve("client.properties");
        try (var out = Files.newBufferedWriter(clientConfig)) {
            settings.store(out, "wrong password");
        }
        Path events = dir.resolve("events.jsonl");
        Files.write(events, List.of(container(CLUSTER, "w-c1", "00:00:00", "00:30:00")));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = new CommandLine(new ReplayCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
                .execute("--events", events.toString(), "--command-config", clientConfig.toString());
        assertThat(exit).isOne();
        assertThat(err.toString()).contains("1 event(s) not accepted by the broker")
                .contains("Authentication failed");
        assertThat(out.toString()).contains("sent 0 event(s)");
    }

    private static String run(Object command, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = new CommandLine(command).setOut(new PrintWriter(out)).setErr(new PrintWriter(err)).execute(args);
        assertThat(exit).as(out + "\n" + err).isZero();
        return out.toString();
    }

    private static String container(String cluster, String id, String from, String to) {
        return ("{\"type\":\"YarnContainerEvent\",\"eventId\":\"%s\",\"cluster\":\"%s\",\"eventTime\":"
                + "\"2026-11-20T%sZ\",\"applicationId\":\"application_1_0001\",\"attemptId\":\"appattempt_1_0001_01\","
                + "\"containerId\":\"%s\",\"queue\":\"root.a\",\"user\":\"u\",\"allocatedMemoryMb\":0,"
                + "\"allocatedVcores\":1,\"node\":\"n1\",\"state\":\"COMPLETE\",\"createdTime\":\"2026-11-20T%sZ\","
                + "\"finishedTime\":\"2026-11-20T%sZ\"}").formatted(id, cluster, to, id, from, to);
    }
}
