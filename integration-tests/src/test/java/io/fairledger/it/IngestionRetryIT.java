package io.fairledger.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.restassured.http.ContentType;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.fairledger.testsupport.KafkaDependency;
import io.fairledger.testsupport.PostgresDependency;
import io.fairledger.testsupport.Processes;
import io.fairledger.testsupport.RealDependency;
import io.fairledger.testsupport.YarnWorkload;

/**
 * The retry path of the consumer: PostgreSQL goes away mid-stream (every connection reset, new ones refused, through
 * {@link TcpProxy}) for longer than the retry pause while events keep arriving, then comes back. The batches that
 * could not be committed are read again from the stored offsets: the statements equal those of
 * {@code fairledger account} on the same events, every fact is stored once, and the consumer goes on with the events
 * published during and after the outage.
 */
class IngestionRetryIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant START = Instant.parse("2026-11-20T00:00:00Z");
    private static final String UNTIL = "2026-11-20T18:00:00Z";
    private static final int QUEUES = 10;
    private static final int CONTAINERS = 8_000;

    private static RealDependency.Running postgres;
    private static RealDependency.Running kafka;
    private static TcpProxy proxy;
    private static Path dir;

    @BeforeAll
    static void start() throws Exception {
        postgres = PostgresDependency.start();
        kafka = KafkaDependency.start();
        URI db = URI.create(jdbcUrl().substring("jdbc:".length()));
        proxy = new TcpProxy(db.getHost(), db.getPort());
        dir = Files.createTempDirectory("fairledger-it-retry");
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
        if (dir != null) {
            Processes.deleteTree(dir);
        }
    }

    @Test
    void batchesNotCommittedWhilePostgresIsAwayAreReadAgainOnceItIsBack() throws Exception {
        String cluster = "it-retry";
        List<String> lines = new ArrayList<>(YarnWorkload.lines(cluster, START, CONTAINERS, QUEUES, 7));
        lines.add(YarnWorkload.last(cluster, Instant.parse(UNTIL))); // the periods up to UNTIL have ended
        Path events = dir.resolve("events.jsonl");
        Path settings = dir.resolve("settings.json");
        Files.write(events, lines);
        Files.writeString(settings, YarnWorkload.settings(START, QUEUES));
        JsonNode offline = account(events, settings);
        assertThat(offline.size()).as("closed periods to compare").isGreaterThan(3);
        long expectedFacts = 2L * (CONTAINERS + 1);

        try (ServerProcess server = ServerProcess.start(serverEnv(), "serve")) {
            register(server, cluster, settings);
            try (ServerProcess replay = ServerProcess.launch(Map.of(), "replay", "--events", events.toString(),
                    "--bootstrap-servers", bootstrap(), "--rate", "1500")) {
                Awaitility.await().atMost(120, TimeUnit.SECONDS).until(() -> factCount() > 2_000);
                proxy.down();
                Thread.sleep(1_000); // a COMMIT already on the wire may still land
                long atOutage = factCount();
                System.out.println("[fairledger-it] PostgreSQL unreachable with " + atOutage + " of " + expectedFacts
                        + " facts stored");
                assertThat(atOutage).as("the outage starts mid-stream").isLessThan(expectedFacts);

                // longer than the retry pause, so the consumer also retries while PostgreSQL is still away
                Awaitility.await().atMost(60, TimeUnit.SECONDS)
                        .until(() -> server.output().contains("Batch not stored"));
                Thread.sleep(12_000);
                assertThat(factCount()).as("nothing is written while PostgreSQL is away").isEqualTo(atOutage);
                assertThat(server.output()).as("a retry while PostgreSQL is still away leaves the consumer running")
                        .contains("Stored offsets cannot be read").doesNotContain("Event consumer stopped");
                proxy.up();
                System.out.println("[fairledger-it] PostgreSQL reachable again");

                assertThat(replay.awaitExit(Duration.ofMinutes(3))).as("replay exit code").isZero();
                Awaitility.await().atMost(180, TimeUnit.SECONDS).pollInterval(2, TimeUnit.SECONDS)
                        .untilAsserted(() -> assertThat(statements(server, cluster)).isEqualTo(offline));
                assertThat(factCount()).as("each start and finish stored once").isEqualTo(expectedFacts);
                assertThat(storedOffset()).as("the stored offset is past every event").isEqualTo(lines.size());
            }
        }
    }

    private static JsonNode account(Path events, Path settings) throws Exception {
        Path out = dir.resolve("offline");
        try (ServerProcess account = ServerProcess.launch(Map.of(), "account", "--events", events.toString(),
                "--config", settings.toString(), "--out", out.toString(), "--until", UNTIL)) {
            assertThat(account.awaitExit(Duration.ofMinutes(3))).as(account.output()).isZero();
        }
        return JSON.readTree(out.resolve("statements.json").toFile());
    }

    private static void register(ServerProcess server, String cluster, Path settings) throws Exception {
        given().baseUri(server.baseUrl()).contentType(ContentType.JSON)
                .body("{\"id\":\"" + cluster + "\",\"resourceManager\":\"YARN\"}").post("/api/v1/admin/clusters")
                .then().statusCode(201);
        given().baseUri(server.baseUrl()).contentType(ContentType.JSON).body(Files.readString(settings))
                .put("/api/v1/admin/clusters/" + cluster + "/ledger-settings").then().statusCode(200);
    }

    private static JsonNode statements(ServerProcess server, String cluster) throws Exception {
        String body = given().baseUri(server.baseUrl()).accept(ContentType.JSON).queryParam("until", UNTIL)
                .get("/api/v1/admin/clusters/" + cluster + "/statements").then().statusCode(200).extract()
                .asString();
        return ServerProcess.withoutChain(JSON.readTree(body));
    }

    private static long factCount() throws Exception {
        return query("select count(*) from ledger_fact");
    }

    private static long storedOffset() throws Exception {
        return query("select coalesce(sum(next_offset), 0) from consumer_offset "
                + "where topic = 'fairledger.yarn.containers'");
    }

    /** Straight to PostgreSQL, not through the proxy. */
    private static long query(String sql) throws Exception {
        try (Connection db = DriverManager.getConnection(jdbcUrl(),
                postgres.config().get("quarkus.datasource.username"),
                postgres.config().get("quarkus.datasource.password"));
                Statement st = db.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String jdbcUrl() {
        return postgres.config().get("quarkus.datasource.jdbc.url");
    }

    private static String bootstrap() {
        return kafka.config().get("kafka.bootstrap.servers");
    }

    /** The server reaches PostgreSQL through the proxy only. */
    private static Map<String, String> serverEnv() {
        URI db = URI.create(jdbcUrl().substring("jdbc:".length()));
        String viaProxy = jdbcUrl().replace(db.getHost() + ":" + db.getPort(), "127.0.0.1:" + proxy.port);
        Map<String, String> env = ServerProcess.environment(postgres, kafka);
        env.put("QUARKUS_DATASOURCE_JDBC_URL", viaProxy);
        return env;
    }
}
