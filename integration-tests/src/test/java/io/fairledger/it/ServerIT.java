package io.fairledger.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.startsWith;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
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

/**
 * The packaged server in production mode: external PostgreSQL, Kafka and Keycloak, all real. An admin registers a
 * cluster with a Keycloak token, a registration published to Kafka shows up over HTTP and in PostgreSQL, callers
 * without a token or without the role are turned away, and the metrics answer only the bearer of the scrape token.
 */
class ServerIT {

    private static RealDependency.Running postgres;
    private static RealDependency.Running kafka;
    private static RealDependency.Running keycloak;
    private static ServerProcess server;
    private static Tokens tokens;
    private static final String SCRAPE_TOKEN = "it-scrape-token-0123456789";

    @BeforeAll
    static void start() {
        postgres = PostgresDependency.start();
        kafka = KafkaDependency.start();
        keycloak = KeycloakDependency.shared();
        Map<String, String> env = ServerProcess.environment(postgres, kafka);
        env.put("QUARKUS_OIDC_AUTH_SERVER_URL", keycloak.config().get("quarkus.oidc.auth-server-url"));
        // the management interface on every interface, as in the image, with the metrics behind a scrape token
        env.put("QUARKUS_MANAGEMENT_HOST", "0.0.0.0");
        env.put("FAIRLEDGER_METRICS_SCRAPE_TOKEN", SCRAPE_TOKEN);
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

        try (Connection db = ServerProcess.database(postgres);
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
    void healthAndMetricsAreOnTheManagementPortOnly() {
        given().baseUri(server.managementUrl()).get("/q/health/ready").then().statusCode(200)
                .body("status", equalTo("UP"));
        String metrics = given().baseUri(server.managementUrl()).auth().oauth2(SCRAPE_TOKEN).get("/q/metrics").then()
                .statusCode(200).extract().asString();
        assertThat(metrics).contains("fairledger_");
        // the API port, where tenants call, serves neither: no tenant's numbers without a token
        for (String path : List.of("/q/metrics", "/q/health", "/q/health/ready", "/q/health/live")) {
            String body = given().get(path).then().statusCode(404).extract().asString();
            assertThat(body).as(path + " on the API port").doesNotContain("fairledger_").doesNotContain("tenant");
        }
    }

    @Test
    void theMetricsAskEveryCallerForTheScrapeTokenAndHealthForNone() {
        String elsewhere = "http://" + ServerProcess.nonLoopbackAddress() + ":" + server.managementPort;
        for (String management : List.of(server.managementUrl(), elsewhere)) {
            given().baseUri(management).get("/q/metrics").then().statusCode(401)
                    .header("WWW-Authenticate", startsWith("Bearer")).contentType("application/problem+json")
                    .body("status", equalTo(401));
            for (String wrong : List.of(SCRAPE_TOKEN + "x", SCRAPE_TOKEN.substring(1), tokens.user("alice"))) {
                given().baseUri(management).auth().oauth2(wrong).get("/q/metrics").then().statusCode(401);
            }
            given().baseUri(management).auth().oauth2(SCRAPE_TOKEN).get("/q/metrics").then().statusCode(200);
            // probes send no token
            for (String health : List.of("/q/health/started", "/q/health/live", "/q/health/ready")) {
                given().baseUri(management).get(health).then().statusCode(200);
            }
        }
    }

    @Test
    void prometheusScrapesTheIngestionCounters() throws Exception {
        publish("it-metrics", "this is not JSON");
        try (RealDependency.Running prometheus = PrometheusDependency.scraping(SCRAPE_TOKEN,
                "127.0.0.1:" + server.managementPort)) {
            String url = prometheus.config().get("prometheus.url");
            Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(() -> given().baseUri(url)
                    .queryParam("query", "fairledger_ingest_events_total{outcome=\"dead-letter\"}")
                    .get("/api/v1/query")
                    .then().statusCode(200).body("data.result.size()", greaterThan(0)));
        }
    }

    @Test
    void everyOperationAnswersEveryCallerAsTheMatrixSays() throws Exception {
        String admin = tokens.user("alice");
        String settings = """
                {"registeredAt":"2026-11-22T00:00:00Z","capacity":{"vcores":8,"memoryMb":16384,"gpus":0},
                 "memory":{"mode":"FULL"},"period":{"length":"PT1H"},
                 "chargeback":{"model":"USAGE","plans":[{"name":"std","perVcoreHour":"0.05","perGbHour":"0",
                 "perGpuHour":"0"}]},"tenants":[{"path":"root.a","weight":1},{"path":"root.b","weight":1}]}""";
        given().auth().oauth2(admin).contentType(ContentType.JSON)
                .body("{\"id\":\"" + ApiMatrix.CLUSTER + "\",\"resourceManager\":\"YARN\"}")
                .post("/api/v1/admin/clusters").then().statusCode(201);
        given().auth().oauth2(admin).contentType(ContentType.JSON).body(settings)
                .put("/api/v1/admin/clusters/" + ApiMatrix.CLUSTER + "/ledger-settings").then().statusCode(200);
        for (String queue : List.of("root.a", "root.b")) {
            publish("fairledger.yarn.containers", ApiMatrix.CLUSTER, container(queue, "00:10:00", "01:30:00"));
        }
        Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(() -> given().auth().oauth2(admin)
                .get("/api/v1/clusters/" + ApiMatrix.CLUSTER + "/grants").then().statusCode(200)
                .body("levels[0].grants.size()", equalTo(2)));

        Map<ApiMatrix.Caller, String> tokenOf = new EnumMap<>(ApiMatrix.Caller.class);
        tokenOf.put(ApiMatrix.Caller.EXPIRED_TOKEN, tokens.expired("alice"));
        tokenOf.put(ApiMatrix.Caller.WRONG_AUDIENCE, tokens.user("other-service", "alice"));
        tokenOf.put(ApiMatrix.Caller.TENANT_A, tokens.user("anna"));
        tokenOf.put(ApiMatrix.Caller.TENANT_B, tokens.user("bert"));
        tokenOf.put(ApiMatrix.Caller.RESOURCE_MANAGER, tokens.resourceManager());
        tokenOf.put(ApiMatrix.Caller.ADMIN, admin);

        List<ApiMatrix.Row> rows = ApiMatrix.rows(settings,
                "{\"id\":\"matrix-new\",\"resourceManager\":\"MESOS\"}");
        List<String> wrong = new ArrayList<>();
        int cells = 0;
        for (ApiMatrix.Row row : rows) {
            for (ApiMatrix.Caller caller : ApiMatrix.Caller.values()) {
                var request = given().accept(row.accept());
                if (tokenOf.containsKey(caller)) {
                    request.auth().oauth2(tokenOf.get(caller));
                }
                if (row.body() != null) {
                    request.contentType(ContentType.JSON).body(row.bodyFor(caller));
                }
                Response response = request.request(row.method(), row.pathFor(caller));
                cells++;
                String where = row.method() + " " + row.pathFor(caller) + " (" + row.accept() + ") as " + caller;
                String body = response.asString();
                if (response.statusCode() != row.expectedFor(caller)) {
                    wrong.add(where + ": " + response.statusCode() + ", expected " + row.expectedFor(caller) + ": "
                            + body.substring(0, Math.min(300, body.length())));
                } else if (response.statusCode() >= 400
                        && !response.contentType().startsWith("application/problem+json")) {
                    wrong.add(
                            where + ": " + response.statusCode() + " without problem+json: " + response.contentType());
                }
                if (body.contains("Exception") || body.contains("\tat ")) {
                    wrong.add(where + ": the body shows internals: " + body.substring(0, Math.min(300, body.length())));
                }
                if (caller == ApiMatrix.Caller.TENANT_A && response.statusCode() == 200
                        && row.path().startsWith("/api/v1/clusters/") && body.contains("root.b")
                        && !row.path().endsWith("/grant") && !row.path().endsWith("/fairness")) {
                    wrong.add(where + ": tenant A sees tenant B's numbers");
                }
            }
        }
        assertThat(wrong).as("cells that differ from the matrix, of " + cells).isEmpty();

        String openapi = given().accept("application/json").get("/q/openapi?format=json").then().statusCode(200)
                .extract().asString();
        Set<String> documented = new TreeSet<>();
        JsonNode paths = new ObjectMapper().readTree(openapi).get("paths");
        paths.fieldNames().forEachRemaining(path -> paths.get(path).fieldNames().forEachRemaining(
                method -> documented.add(method.toUpperCase(Locale.ROOT) + " " + path)));
        Set<String> inMatrix = new TreeSet<>();
        rows.forEach(r -> inMatrix.add(r.operation()));
        assertThat(inMatrix).as("every documented operation is in the matrix").containsAll(documented);
    }

    private static String container(String queue, String from, String to) {
        String id = "container_" + queue.replace('.', '_');
        return ("{\"type\":\"YarnContainerEvent\",\"eventId\":\"%s\",\"cluster\":\"%s\",\"eventTime\":"
                + "\"2026-11-22T%sZ\",\"applicationId\":\"application_1_0001\",\"attemptId\":"
                + "\"appattempt_1_0001_01\",\"containerId\":\"%s\",\"queue\":\"%s\",\"user\":\"u\","
                + "\"allocatedMemoryMb\":1024,\"allocatedVcores\":2,\"node\":\"n1\",\"state\":\"COMPLETE\","
                + "\"createdTime\":\"2026-11-22T%sZ\",\"finishedTime\":\"2026-11-22T%sZ\"}")
                .formatted(id, ApiMatrix.CLUSTER, to, id, queue, from, to);
    }

    private static void publish(String key, String json) throws Exception {
        publish("fairledger.registrations", key, json);
    }

    private static void publish(String topic, String key, String json) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.config().get("kafka.bootstrap.servers")),
                new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, key, json)).get();
        }
    }
}
