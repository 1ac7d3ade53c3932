package io.fairledger.ingest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.net.URI;
import java.net.URL;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import io.fairledger.ingest.schema.EventTopics;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;

/**
 * The health checks of a server on a real PostgreSQL and Kafka: readiness (live ledgers loaded), liveness (the event
 * consumer's thread) and the ingestion check, none showing an address; then the consumer really dies (fenced by a
 * second member of its group with the same static {@code group.instance.id}, the error an operator gets by giving two
 * replicas the same id): liveness turns DOWN with a 503 and {@code Retry-After}, readiness stays UP.
 */
@QuarkusTest
@TestProfile(HealthChecksTest.StaticMember.class)
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HealthChecksTest {

    private static final String GROUP = "fairledger-health-test";
    private static final String INSTANCE = "fairledger-health-test-replica";

    /** A group of its own and a static member id, so the test can fence this server's consumer only. */
    public static class StaticMember implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("kafka.group.id", GROUP, "kafka.group.instance.id", INSTANCE);
        }
    }

    @TestHTTPResource(value = "/health", management = true)
    URL health;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String jdbcUrl;

    @Test
    @Order(1)
    void everyCheckIsUpAndNoneShowsAnAddress() {
        Awaitility.await().atMost(60, TimeUnit.SECONDS)
                .untilAsserted(() -> given().get(health + "/ready").then().statusCode(200));
        given().get(health + "/live").then().statusCode(200).body("checks.find { it.name == '"
                + ConsumerLiveness.NAME + "' }.data.thread", equalTo("running"));
        Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(() -> given().get(health + "/well").then()
                .statusCode(200).body("checks[0].data.kafka", equalTo("reachable"))
                .body("checks[0].data.postgresql", equalTo("reachable"))
                .body("checks[0].data.consumer", equalTo("running")));

        Response all = given().get(health.toString());
        assertThat(all.statusCode()).as(all.asString()).isEqualTo(200);
        List<String> names = all.jsonPath().getList("checks.name");
        assertThat(names).containsExactlyInAnyOrder(ConsumerLiveness.NAME, IngestionHealth.NAME, "live ledgers");
        URI db = URI.create(jdbcUrl.substring("jdbc:".length()));
        assertThat(all.asString()).as("the health document names no address")
                .doesNotContain(db.getHost() + ":" + db.getPort()).doesNotContain(bootstrap);
    }

    @Test
    @Order(2)
    void aDeadConsumerTurnsLivenessDownWhileReadinessStaysUp() {
        try (KafkaConsumer<byte[], byte[]> usurper = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ConsumerConfig.GROUP_ID_CONFIG, GROUP,
                ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, INSTANCE), new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            usurper.subscribe(List.of(EventTopics.REGISTRATIONS));
            Awaitility.await().atMost(120, TimeUnit.SECONDS).pollDelay(Duration.ZERO).untilAsserted(() -> {
                usurper.poll(Duration.ofMillis(200));
                given().get(health + "/live").then().statusCode(503);
            });
        }
        Response live = given().get(health + "/live");
        assertThat(live.statusCode()).isEqualTo(503);
        assertThat(live.header("Retry-After")).as("Retry-After of a 503").isNotBlank();
        assertThat(live.jsonPath().getString("checks.find { it.name == '" + ConsumerLiveness.NAME
                + "' }.data.thread")).isEqualTo("stopped: org.apache.kafka.common.errors.FencedInstanceIdException");
        given().get(health + "/ready").then().statusCode(200);
        given().get(health + "/well").then().statusCode(503).body("checks[0].data.consumer",
                equalTo("stopped: org.apache.kafka.common.errors.FencedInstanceIdException"));
    }
}
