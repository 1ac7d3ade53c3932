package io.fairledger.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

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
import io.fairledger.testsupport.PostgresDependency;
import io.fairledger.testsupport.RealDependency;
import io.fairledger.testsupport.YarnWorkload;

/**
 * Health during an outage, on the packaged server: PostgreSQL goes away (every connection reset, new ones refused,
 * through {@link TcpProxy}) and comes back, then Kafka stops. Throughout, liveness and readiness stay UP and grants are
 * served from memory, while the ingestion check reports which dependency is away; a statement or a tenant change
 * without PostgreSQL is a 503 problem+json with {@code Retry-After}, and no health answer names an address.
 */
class OutageIT {

    private static final String CLUSTER = "it-outage";
    private static final String PROBLEM = "application/problem+json";

    private static RealDependency.Running postgres;
    private static RealDependency.Running kafka;
    private static TcpProxy proxy;
    private static String bootstrap;

    @BeforeAll
    static void start() {
        postgres = PostgresDependency.start();
        kafka = KafkaDependency.start();
        proxy = new TcpProxy(database().getHost(), database().getPort());
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
        if (kafka != null) {
            kafka.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    @Test
    void servingOutlivesOutagesOfPostgresAndKafka() throws Exception {
        try (ServerProcess server = ServerProcess.start(serverEnv(), "serve")) {
            Instant start = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(3));
            String until = start.plus(Duration.ofHours(2)).toString();
            register(server, start);
            publish(YarnWorkload.lines(CLUSTER, start, 200, 4, 11));
            Awaitility.await("events stored and the live ledger built").atMost(120, TimeUnit.SECONDS)
                    .pollInterval(1, TimeUnit.SECONDS).untilAsserted(() -> {
                        well(server).then().statusCode(200);
                        assertThat(well(server).jsonPath().getLong("checks[0].data.lag")).isZero();
                        grants(server).then().statusCode(200);
                    });
            given().baseUri(server.baseUrl()).queryParam("until", until)
                    .get("/api/v1/admin/clusters/" + CLUSTER + "/statements").then().statusCode(200);

            proxy.down();
            System.out.println("[fairledger-it] PostgreSQL unreachable");
            Awaitility.await("the ingestion check reports PostgreSQL away").atMost(60, TimeUnit.SECONDS)
                    .untilAsserted(() -> {
                        Response well = well(server);
                        assertThat(well.statusCode()).isEqualTo(503);
                        assertThat(well.jsonPath().getString("checks[0].data.postgresql")).startsWith("unreachable");
                    });
            assertThat(well(server).header("Retry-After")).as("Retry-After of a DOWN health answer").isNotBlank();
            health(server, "/ready").then().statusCode(200);
            health(server, "/live").then().statusCode(200);
            grants(server).then().statusCode(200);

            Response statements = given().baseUri(server.baseUrl()).queryParam("until", until)
                    .get("/api/v1/admin/clusters/" + CLUSTER + "/statements");
            unavailable(statements, "a statement without PostgreSQL");
            Response tenantChange = given().baseUri(server.baseUrl()).contentType(ContentType.JSON)
                    .body("{\"weight\":5}").put("/api/v1/admin/clusters/" + CLUSTER + "/tenants/root.q0");
            unavailable(tenantChange, "a tenant change without PostgreSQL");
            noAddresses(health(server, ""));

            proxy.up();
            System.out.println("[fairledger-it] PostgreSQL reachable again");
            Awaitility.await("ingestion healthy again").atMost(60, TimeUnit.SECONDS)
                    .untilAsserted(() -> well(server).then().statusCode(200));
            given().baseUri(server.baseUrl()).queryParam("until", until)
                    .get("/api/v1/admin/clusters/" + CLUSTER + "/statements").then().statusCode(200);

            kafka.close();
            kafka = null;
            System.out.println("[fairledger-it] Kafka stopped");
            Awaitility.await("the ingestion check reports Kafka away").atMost(60, TimeUnit.SECONDS)
                    .untilAsserted(() -> {
                        Response well = well(server);
                        assertThat(well.statusCode()).isEqualTo(503);
                        assertThat(well.jsonPath().getString("checks[0].data.kafka")).startsWith("unreachable");
                    });
            assertThat(well(server).jsonPath().getString("checks[0].data.postgresql")).isEqualTo("reachable");
            health(server, "/ready").then().statusCode(200);
            health(server, "/live").then().statusCode(200);
            grants(server).then().statusCode(200);
            noAddresses(health(server, ""));
        }
    }

    private static void unavailable(Response response, String what) {
        assertThat(response.statusCode()).as(what + ": " + response.asString()).isEqualTo(503);
        assertThat(response.contentType()).as(what).startsWith(PROBLEM);
        assertThat(response.jsonPath().getInt("status")).isEqualTo(503);
        assertThat(response.header("Retry-After")).as(what + ": Retry-After").matches("[1-9][0-9]*");
        assertThat(response.asString()).as(what + ": no address").doesNotContain("127.0.0.1:" + proxy.port);
    }

    /** The whole health document names neither PostgreSQL's nor Kafka's address. */
    private static void noAddresses(Response health) {
        assertThat(health.asString()).as("health without a token")
                .doesNotContain("127.0.0.1:" + proxy.port)
                .doesNotContain(database().getHost() + ":" + database().getPort())
                .doesNotContain(bootstrap);
    }

    private static Response health(ServerProcess server, String path) {
        return given().baseUri(server.managementUrl()).get("/q/health" + path);
    }

    private static Response well(ServerProcess server) {
        return health(server, "/well");
    }

    private static Response grants(ServerProcess server) {
        return given().baseUri(server.baseUrl()).get("/api/v1/clusters/" + CLUSTER + "/grants");
    }

    private static void register(ServerProcess server, Instant start) {
        given().baseUri(server.baseUrl()).contentType(ContentType.JSON)
                .body("{\"id\":\"" + CLUSTER + "\",\"resourceManager\":\"YARN\"}").post("/api/v1/admin/clusters")
                .then().statusCode(201);
        given().baseUri(server.baseUrl()).contentType(ContentType.JSON).body(YarnWorkload.settings(start, 4))
                .put("/api/v1/admin/clusters/" + CLUSTER + "/ledger-settings").then().statusCode(200);
    }

    private static void publish(List<String> lines) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new StringSerializer(),
                new StringSerializer())) {
            lines.forEach(line -> producer.send(new ProducerRecord<>("fairledger.yarn.containers", CLUSTER, line)));
            producer.flush();
        }
    }

    private static URI database() {
        return URI.create(postgres.config().get("quarkus.datasource.jdbc.url").substring("jdbc:".length()));
    }

    /** The server reaches PostgreSQL through the proxy only. */
    private static Map<String, String> serverEnv() {
        bootstrap = kafka.config().get("kafka.bootstrap.servers");
        String jdbc = postgres.config().get("quarkus.datasource.jdbc.url");
        String viaProxy = jdbc.replace(database().getHost() + ":" + database().getPort(), "127.0.0.1:" + proxy.port);
        Map<String, String> env = ServerProcess.environment(postgres, kafka);
        env.put("QUARKUS_DATASOURCE_JDBC_URL", viaProxy);
        return env;
    }
}
