package io.fairledger.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.fairledger.testsupport.KafkaDependency;
import io.fairledger.testsupport.KeycloakDependency;
import io.fairledger.testsupport.PostgresDependency;
import io.fairledger.testsupport.PrometheusDependency;
import io.fairledger.testsupport.RealDependency;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;

/**
 * The packaged server in production mode: external PostgreSQL, Kafka and Keycloak, all real. An admin registers a
 * cluster with a Keycloak token, a registration published to Kafka shows up over HTTP and in PostgreSQL, and callers
 * without a token or without the role are turned away.
 */
class ServerIT {

    private static RealDependency.Running postgres;
    private static RealDependency.Running kafka;
    private static RealDependency.Running keycloak;
    private static ServerProcess server;
    private static Tokens tokens;

    @BeforeAll
    static void start() {
        postgres = PostgresDependency.start();
        kafka = KafkaDependency.start();
        keycloak = KeycloakDependency.start();
        Map<String, String> env = new HashMap<>();
        env.put("QUARKUS_DATASOURCE_JDBC_URL", postgres.config().get("quarkus.datasource.jdbc.url"));
        env.put("QUARKUS_DATASOURCE_USERNAME", postgres.config().get("quarkus.datasource.username"));
        env.put("QUARKUS_DATASOURCE_PASSWORD", postgres.config().get("quarkus.datasource.password"));
        env.put("KAFKA_BOOTSTRAP_SERVERS", kafka.config().get("kafka.bootstrap.servers"));
        env.put("QUARKUS_OIDC_AUTH_SERVER_URL", keycloak.config().get("quarkus.oidc.auth-server-url"));
        server = ServerProcess.start(env, "serve");
        RestAssured.baseURI = server.baseUrl();
        tokens = new Tokens(keycloak.config().get("quarkus.oidc.auth-server-url"));
    }

    @AfterAll
    static void stop() throws InterruptedException {
        try {
            if (server != null) {
                assertThat(server.terminate()).as("exit code after SIGTERM").isIn(0, 143);
            }
        } finally {
            for (RealDependency.Running dependency : new RealDependency.Running[]{keycloak, kafka, postgres}) {
                if (dependency != null) {
                    dependency.close();
                }
            }
        }
    }

    @Test
    void anAdminRegistersAClusterAndAKafkaEventReachesHttpAndPostgres() throws Exception {
        String admin = tokens.user("alice");
        given().auth().oauth2(admin).contentType(ContentType.JSON)
                .body("{\"id\":\"it-yarn\",\"resourceManager\":\"YARN\",\"name\":\"IT cluster\"}")
                .post("/api/v1/admin/clusters")
                .then().statusCode(201).body("name", equalTo("IT cluster"));

        publish("it-yarn", """
                {"type":"TenantRegistered","eventId":"it-1","cluster":"it-yarn","eventTime":"2026-11-22T10:00:00Z",
                 "tenant":"root.genomics","weight":5}""");

        Awaitility.await().atMost(30, TimeUnit.SECONDS).untilAsserted(() -> given().auth().oauth2(admin)
                .get("/api/v1/admin/clusters/it-yarn/tenants/root.genomics")
                .then().statusCode(200).body("weight", equalTo(5.0f)).body("parent", equalTo("root")));

        try (Connection db = DriverManager.getConnection(postgres.config().get("quarkus.datasource.jdbc.url"),
                postgres.config().get("quarkus.datasource.username"),
                postgres.config().get("quarkus.datasource.password"));
                PreparedStatement query = db.prepareStatement(
                        "select weight, parent_path from tenant where cluster_id = ? and path = ?")) {
            query.setString(1, "it-yarn");
            query.setString(2, "root.genomics");
            try (ResultSet row = query.executeQuery()) {
                assertThat(row.next()).as("tenant row in PostgreSQL").isTrue();
                assertThat(row.getBigDecimal("weight")).isEqualByComparingTo(new BigDecimal(5));
                assertThat(row.getString("parent_path")).isEqualTo("root");
            }
        }
    }

    @Test
    void anonymousCallersGet401AsProblemJson() {
        given().get("/api/v1/admin/clusters")
                .then().statusCode(401).contentType("application/problem+json").body("status", equalTo(401));
    }

    @Test
    void aTokenWithoutTheAdminRoleGets403() {
        given().auth().oauth2(tokens.user("victor")).get("/api/v1/admin/clusters")
                .then().statusCode(403).contentType("application/problem+json");
        given().auth().oauth2(tokens.user("anna")).get("/api/v1/admin/clusters").then().statusCode(403);
        given().auth().oauth2(tokens.resourceManager()).get("/api/v1/admin/clusters").then().statusCode(403);
    }

    @Test
    void aTokenIssuedForAnotherAudienceIsRejected() {
        given().auth().oauth2(tokens.user("other-service", "alice")).get("/api/v1/admin/clusters")
                .then().statusCode(401);
    }

    @Test
    void healthAndMetricsNeedNoToken() {
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        given().get("/q/metrics").then().statusCode(200);
    }

    @Test
    void prometheusScrapesTheIngestionCounters() throws Exception {
        publish("it-metrics", "this is not JSON");
        try (RealDependency.Running prometheus = PrometheusDependency.start("127.0.0.1:" + server.port)) {
            String url = prometheus.config().get("prometheus.url");
            Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(() -> given().baseUri(url)
                    .queryParam("query", "fairledger_ingest_events_total{outcome=\"dead-letter\"}")
                    .get("/api/v1/query")
                    .then().statusCode(200).body("data.result.size()", greaterThan(0)));
        }
    }

    private static void publish(String key, String json) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.config().get("kafka.bootstrap.servers")),
                new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>("fairledger.registrations", key, json)).get();
        }
    }

}
