package io.fairledger.ingest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.fairledger.ingest.schema.EventTopics;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;

@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class RegistrationEventsTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void registrationsFromKafkaShowUpInTheAdminApi() throws Exception {
        publish("kafka-yarn", """
                {"type":"ClusterRegistered","eventId":"r1","cluster":"kafka-yarn","eventTime":"2026-11-22T10:00:00Z",
                 "resourceManager":"YARN","name":"From Kafka"}""");
        publish("kafka-yarn", """
                {"type":"TenantRegistered","eventId":"r2","cluster":"kafka-yarn","eventTime":"2026-11-22T10:00:01Z",
                 "tenant":"root.science","weight":4}""");
        // a redelivery of the same registration changes nothing
        publish("kafka-yarn", """
                {"type":"ClusterRegistered","eventId":"r1","cluster":"kafka-yarn","eventTime":"2026-11-22T10:00:00Z",
                 "resourceManager":"YARN","name":"From Kafka"}""");

        Awaitility.await().atMost(30, TimeUnit.SECONDS).untilAsserted(() -> given()
                .get("/api/v1/admin/clusters/kafka-yarn/tenants/root.science")
                .then().statusCode(200).body("weight", equalTo(4.0f)));
        given().get("/api/v1/admin/clusters/kafka-yarn").then().statusCode(200).body("name", equalTo("From Kafka"));
    }

    @Test
    void badRecordsGoToTheDeadLetterTopicWithTheirReasonAndBytes() throws Exception {
        String marker = UUID.randomUUID().toString();
        String undecodable = "not json " + marker;
        String invalid = """
                {"type":"TenantRegistered","eventId":"%s","cluster":"c","eventTime":"2026-11-22T10:00:00Z",
                 "tenant":"root.x","weight":-1}""".formatted(marker);
        String unknownCluster = """
                {"type":"TenantRegistered","eventId":"%s","cluster":"no-such-cluster","eventTime":"2026-11-22T10:00:00Z",
                 "tenant":"root.x","weight":1}"""
                .formatted(marker);
        publish("c", undecodable);
        publish("c", invalid);
        publish("no-such-cluster", unknownCluster);

        List<ConsumerRecord<byte[], byte[]>> letters = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, "dlq-reader-" + marker,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(EventTopics.DEAD_LETTERS));
            Awaitility.await().atMost(30, TimeUnit.SECONDS).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> {
                    if (new String(r.value(), StandardCharsets.UTF_8).contains(marker)) {
                        letters.add(r);
                    }
                });
                return letters.size() >= 3;
            });
        }
        assertThat(letters).extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
                .containsExactly(undecodable, invalid, unknownCluster);
        assertThat(letters).extracting(r -> reason(r))
                .satisfiesExactly(
                        r -> assertThat(r).startsWith("undecodable: "),
                        r -> assertThat(r).isEqualTo("invalid: weight must be >= 0, got -1"),
                        r -> assertThat(r).isEqualTo("rejected: no cluster 'no-such-cluster' is registered"));
        assertThat(letters).allSatisfy(r -> assertThat(
                new String(r.headers().lastHeader(EventTopics.SOURCE_TOPIC_HEADER).value(), StandardCharsets.UTF_8))
                .isEqualTo(EventTopics.REGISTRATIONS));
    }

    private static String reason(ConsumerRecord<byte[], byte[]> record) {
        return new String(record.headers().lastHeader(EventTopics.REASON_HEADER).value(), StandardCharsets.UTF_8);
    }

    private void publish(String key, String json) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new ByteArraySerializer(),
                new ByteArraySerializer())) {
            // one partition per key keeps a cluster's events in order
            producer.send(new ProducerRecord<>(EventTopics.REGISTRATIONS, key.getBytes(StandardCharsets.UTF_8),
                    json.getBytes(StandardCharsets.UTF_8))).get();
        }
    }
}
