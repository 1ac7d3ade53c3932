package io.fairledger.tenancy;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.fairledger.ingest.schema.EventTopics;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;

/**
 * The same configuration changes made over the admin API and as Kafka registrations leave the same state and the same
 * audit entries: both paths go through {@link ConfigurationChanges}, which closes closable periods and audits. Only
 * the actor differs, as it should (the loopback admin, or the consumer, which acts anonymously).
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class ConfigurationPathsTest {

    private static final String SETTINGS = """
            {"registeredAt":"2026-11-01T00:00:00Z","capacity":{"vcores":100,"memoryMb":409600,"gpus":0},
             "period":{"length":"P1D"},"tenants":[{"path":"root.analytics","weight":2}]}""";

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void kafkaRegistrationsAndTheAdminApiLeaveTheSameStateAndAudit() throws Exception {
        // over REST
        given().contentType(ContentType.JSON)
                .body("{\"id\":\"paths-rest\",\"name\":\"Same\",\"resourceManager\":\"YARN\"}")
                .post("/api/v1/admin/clusters").then().statusCode(201);
        given().contentType(ContentType.JSON).body(SETTINGS).put("/api/v1/admin/clusters/paths-rest/ledger-settings")
                .then().statusCode(200);
        given().contentType(ContentType.JSON).body("{\"weight\":4,\"discountRateOverride\":0.5}")
                .put("/api/v1/admin/clusters/paths-rest/tenants/root.science.ml").then().statusCode(200);

        // over Kafka (ledger settings have no registration event: they go over REST on both clusters)
        publish("paths-kafka", """
                {"type":"ClusterRegistered","eventId":"p1","cluster":"paths-kafka","eventTime":"2026-11-22T10:00:00Z",
                 "resourceManager":"YARN","name":"Same"}""");
        Awaitility.await().atMost(30, TimeUnit.SECONDS)
                .untilAsserted(() -> given().get("/api/v1/admin/clusters/paths-kafka").then().statusCode(200));
        given().contentType(ContentType.JSON).body(SETTINGS)
                .put("/api/v1/admin/clusters/paths-kafka/ledger-settings").then().statusCode(200);
        publish("paths-kafka", """
                {"type":"TenantRegistered","eventId":"p2","cluster":"paths-kafka","eventTime":"2026-11-22T10:00:01Z",
                 "tenant":"root.science.ml","weight":4,"discountRateOverride":0.5}""");
        // a redelivered registration changes nothing and is not audited again
        publish("paths-kafka", """
                {"type":"ClusterRegistered","eventId":"p1","cluster":"paths-kafka","eventTime":"2026-11-22T10:00:00Z",
                 "resourceManager":"YARN","name":"Same"}""");
        Awaitility.await().atMost(30, TimeUnit.SECONDS).untilAsserted(() -> assertThat(audit("paths-kafka"))
                .anySatisfy(c -> assertThat(c.get("subject")).isEqualTo("tenant root.science.ml")));

        assertThat(state("paths-kafka")).isEqualTo(state("paths-rest"));
        List<Map<String, Object>> rest = audit("paths-rest");
        List<Map<String, Object>> kafka = audit("paths-kafka");
        assertThat(rest).extracting(c -> c.get("subject")).containsExactly("tenant root.science.ml",
                "ledger-settings", "cluster");
        assertThat(comparable(kafka, "paths-kafka")).isEqualTo(comparable(rest, "paths-rest"));
        assertThat(kafka).extracting(c -> c.get("actor")).containsOnly("anonymous", rest.get(0).get("actor"));
        assertThat(kafka.get(0).get("actor")).as("the tenant change came from the consumer").isEqualTo("anonymous");
    }

    /** The cluster, its tenant tree and its ledger settings, with the cluster's id blanked. */
    private static String state(String cluster) {
        return (given().get("/api/v1/admin/clusters/" + cluster).then().statusCode(200).extract().asString()
                + given().get("/api/v1/admin/clusters/" + cluster + "/tenants").then().statusCode(200).extract()
                        .asString()
                + given().get("/api/v1/admin/clusters/" + cluster + "/ledger-settings").then().statusCode(200)
                        .extract().asString())
                .replace(cluster, "ID");
    }

    private static List<Map<String, Object>> audit(String cluster) {
        return given().queryParam("cluster", cluster).get("/api/v1/admin/audit").then().statusCode(200).extract()
                .jsonPath().getList("$");
    }

    /** What an entry says, without who made it, when it was written and its row id; the cluster's id blanked. */
    private static List<String> comparable(List<Map<String, Object>> entries, String cluster) {
        return entries.stream().map(c -> (c.get("cluster") + " | " + c.get("subject") + " | " + c.get("before")
                + " | " + c.get("after") + " | " + (String.valueOf(c.get("subject")).equals("cluster")
                        ? "registration time"
                        : c.get("effectiveFrom")))
                .replace(cluster, "ID")).toList();
    }

    private void publish(String key, String json) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(EventTopics.REGISTRATIONS, key.getBytes(StandardCharsets.UTF_8),
                    json.getBytes(StandardCharsets.UTF_8))).get();
        }
    }
}
