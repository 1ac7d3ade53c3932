package io.fairledger.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.restassured.http.ContentType;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.fairledger.standalone.ManagementPort;
import io.fairledger.standalone.StandaloneServices;
import io.fairledger.testsupport.Processes;
import io.fairledger.testsupport.YarnWorkload;

/**
 * {@code fairledger serve} with nothing configured: embedded PostgreSQL and Kafka under --data-dir, loopback callers
 * trusted as admin, SIGTERM stops everything (within its bound, even with a request in flight), a restart keeps the
 * data, a second server on a live directory is refused, and after {@code kill -9} the next start stops the orphaned
 * PostgreSQL and carries on with the data exact. A taken management port 9000 moves to a free one; a port given that
 * cannot be used is named before anything starts.
 */
class StandaloneIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant START = Instant.parse("2026-11-20T00:00:00Z");
    private static final String UNTIL = "2026-11-20T06:00:00Z";
    private static final int QUEUES = 4;
    /** The server's own bound, and a few seconds for the JVM to exit once everything has stopped. */
    private static final Duration SHUTDOWN_BOUND = StandaloneServices.SHUTDOWN_BOUND.plusSeconds(5);

    private Path dataDir;

    @AfterEach
    void cleanUp() {
        if (dataDir != null) {
            Processes.deleteTree(dataDir);
        }
    }

    @Test
    void startsStopsCleanlyAndKeepsItsDataAcrossARestart() throws Exception {
        dataDir = Files.createTempDirectory("fairledger-it-standalone");
        try (ServerProcess first = ServerProcess.start(Map.of(), "serve", "--data-dir", dataDir.toString(),
                "--kafka-port", "0")) {
            given().baseUri(first.baseUrl()).contentType(ContentType.JSON)
                    .body("{\"id\":\"kept\",\"resourceManager\":\"MESOS\"}")
                    .post("/api/v1/admin/clusters").then().statusCode(201);
            // metrics and health on the management port, bound to loopback like the API; not on the API port
            given().baseUri(first.managementUrl()).get("/q/metrics").then().statusCode(200);
            given().baseUri(first.baseUrl()).get("/q/metrics").then().statusCode(404);
            assertThat(first.output())
                    .contains("Management interface listening on http://127.0.0.1:" + first.managementPort);
            assertThat(first.terminate()).as("exit code after SIGTERM").isIn(0, 143);
            assertThat(first.output()).contains("No OIDC server configured")
                    .contains("embedded Kafka broker stopped").contains("embedded PostgreSQL stopped");
            assertThat(postgresProcessesUnder(dataDir)).as("postgres processes left running").isZero();
        }
        try (ServerProcess second = ServerProcess.start(Map.of(), "serve", "--data-dir", dataDir.toString(),
                "--kafka-port", "0")) {
            given().baseUri(second.baseUrl()).get("/api/v1/admin/clusters/kept")
                    .then().statusCode(200).body("resourceManager", equalTo("MESOS"));
            String portal = given().baseUri(second.baseUrl()).get("/portal").then().statusCode(200)
                    .contentType(ContentType.HTML).extract().asString();
            assertThat(portal).as("the portal is open to the loopback operator as admin").contains("local-admin")
                    .contains("Cluster kept").contains("href=\"/portal/admin\"");
            given().baseUri(second.baseUrl()).get("/portal/admin").then().statusCode(200);
            second.terminate();
        }
    }

    @Test
    void refusesANonLoopbackAddressWithoutOidc() throws Exception {
        dataDir = Files.createTempDirectory("fairledger-it-refusal");
        try (ServerProcess server = ServerProcess.launch(Map.of("QUARKUS_HTTP_HOST", "0.0.0.0"), "serve",
                "--data-dir", dataDir.toString())) {
            assertThat(server.awaitExit(Duration.ofSeconds(60))).isEqualTo(2);
            assertThat(server.output()).contains("refusing to bind 0.0.0.0 without an OIDC server");
        }
    }

    @Test
    void aTakenDefaultManagementPortMovesAndItsMetricsAnswerThisMachineOnly() throws Exception {
        dataDir = Files.createTempDirectory("fairledger-it-moved");
        // 9000 is taken: by this socket, or by whoever holds it already
        try (ServerSocket taken = bindIfFree(ManagementPort.DEFAULT);
                ServerProcess server = ServerProcess.launch(Map.of("QUARKUS_MANAGEMENT_PORT", "",
                        "QUARKUS_MANAGEMENT_HOST", "0.0.0.0"), "serve", "--data-dir", dataDir.toString(),
                        "--kafka-port", "0")) {
            Pattern moved = Pattern.compile("fairledger: port 9000 is taken: health and metrics are on port (\\d+) "
                    + "instead");
            Matcher notice = Awaitility.await().atMost(60, TimeUnit.SECONDS)
                    .until(() -> moved.matcher(server.output()), Matcher::find);
            int port = Integer.parseInt(notice.group(1));
            server.awaitReady(port);
            // no scrape token set: the metrics answer callers on this machine, not another machine
            given().baseUri("http://127.0.0.1:" + port).get("/q/metrics").then().statusCode(200);
            String elsewhere = "http://" + ServerProcess.nonLoopbackAddress() + ":" + port;
            given().baseUri(elsewhere).get("/q/metrics").then().statusCode(401)
                    .contentType("application/problem+json");
            given().baseUri(elsewhere).get("/q/health/ready").then().statusCode(200);
            assertThat(server.terminate()).isIn(0, 143);
        }
    }

    @Test
    void aManagementPortThatCannotBeUsedIsNamedBeforeAnythingStarts() throws Exception {
        dataDir = Files.createTempDirectory("fairledger-it-port");
        int apiPort = Processes.freePort();
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Map<String, String> refusals = Map.of(
                    Integer.toString(taken.getLocalPort()), "(health and metrics) is in use",
                    "65536", "is not a port: give 1 to 65535, or 0 for a free one",
                    "-1", "is not a port",
                    Integer.toString(apiPort), "is the API's port");
            for (Map.Entry<String, String> refusal : refusals.entrySet()) {
                try (ServerProcess server = ServerProcess.launch(Map.of("QUARKUS_HTTP_PORT", Integer.toString(apiPort)),
                        "serve", "--data-dir", dataDir.toString(), "--management-port", refusal.getKey())) {
                    assertThat(server.awaitExit(Duration.ofSeconds(60))).as(refusal.getKey()).isEqualTo(1);
                    assertThat(server.output()).as(refusal.getKey())
                            .contains("fairledger: --management-port " + refusal.getKey() + " ")
                            .contains(refusal.getValue()).doesNotContain("Standalone: embedded");
                }
            }
        }
    }

    /** A socket bound to {@code port} on every interface, or null when something else holds the port already. */
    private static ServerSocket bindIfFree(int port) {
        try {
            return new ServerSocket(port);
        } catch (IOException e) {
            return null;
        }
    }

    @Test
    void productionModeNamesAnUnreachableDependency() throws Exception {
        int closed = Processes.freePort();
        try (ServerProcess server = ServerProcess.launch(
                Map.of("QUARKUS_DATASOURCE_JDBC_URL", "jdbc:postgresql://127.0.0.1:" + closed + "/fairledger"),
                "serve")) {
            assertThat(server.awaitExit(Duration.ofSeconds(60))).isEqualTo(1);
            assertThat(server.output()).contains("PostgreSQL at 127.0.0.1:" + closed).contains("is unreachable");
        }
    }

    @Test
    void afterKillMinus9TheNextServeStopsTheOrphanAndTheDataIsExact() throws Exception {
        dataDir = Files.createTempDirectory("fairledger-it-crash");
        String cluster = "crash";
        List<String> lines = new ArrayList<>(YarnWorkload.lines(cluster, START, 3_000, QUEUES, 16));
        // the server states the periods its facts have reached: a last container at UNTIL ends them all
        lines.add(YarnWorkload.last(cluster, Instant.parse(UNTIL)));
        Path events = dataDir.resolve("events.jsonl");
        Path settings = dataDir.resolve("settings.json");
        Files.write(events, lines);
        Files.writeString(settings, YarnWorkload.settings(START, QUEUES));
        JsonNode offline = account(events, settings, dataDir.resolve("offline"));
        Path data = dataDir.resolve("data");
        String kafkaPort = Integer.toString(Processes.freePort());
        String[] serve = {"serve", "--data-dir", data.toString(), "--kafka-port", kafkaPort};

        try (ServerProcess first = ServerProcess.start(Map.of(), serve)) {
            try (ServerProcess second = ServerProcess.launch(Map.of(), serve)) {
                assertThat(second.awaitExit(Duration.ofSeconds(60))).as("a second server on a live directory")
                        .isEqualTo(1);
                assertThat(second.output())
                        .contains("is in use by a running fairledger server (pid " + first.pid() + ")")
                        .doesNotContain("\tat ");
            }
            given().baseUri(first.managementUrl()).get("/q/health/ready").then().statusCode(200);
            given().baseUri(first.baseUrl()).contentType(ContentType.JSON)
                    .body("{\"id\":\"" + cluster + "\",\"resourceManager\":\"YARN\"}")
                    .post("/api/v1/admin/clusters").then().statusCode(201);
            given().baseUri(first.baseUrl()).contentType(ContentType.JSON).body(Files.readString(settings))
                    .put("/api/v1/admin/clusters/" + cluster + "/ledger-settings").then().statusCode(200);
            try (ServerProcess replay = ServerProcess.launch(Map.of(), "replay", "--events", events.toString(),
                    "--bootstrap-servers", "127.0.0.1:" + kafkaPort)) {
                assertThat(replay.awaitExit(Duration.ofMinutes(3))).as("replay exit code").isZero();
            }
            // while the server may still be storing the events
            first.kill();
        }
        assertThat(postgresProcessesUnder(data)).as("PostgreSQL orphaned by the kill").isPositive();

        try (ServerProcess restarted = ServerProcess.start(Map.of(), serve)) {
            assertThat(restarted.output()).contains("is still running on").contains("has stopped");
            given().baseUri(restarted.baseUrl()).get("/api/v1/admin/clusters/" + cluster).then().statusCode(200)
                    .body("resourceManager", equalTo("YARN"));
            Awaitility.await().atMost(240, TimeUnit.SECONDS).pollInterval(2, TimeUnit.SECONDS).untilAsserted(() -> {
                String body = given().baseUri(restarted.baseUrl()).accept(ContentType.JSON)
                        .queryParam("until", UNTIL).get("/api/v1/admin/clusters/" + cluster + "/statements").then()
                        .statusCode(200).extract().asString();
                assertThat(ServerProcess.withoutChain(JSON.readTree(body)))
                        .as("statements after the crash equal the offline account")
                        .isEqualTo(offline);
            });
            assertThat(restarted.terminate()).isIn(0, 143);
        }
        assertThat(postgresProcessesUnder(data)).as("postgres processes left running").isZero();
    }

    @Test
    void sigtermWithARequestInFlightStopsEverythingWithinTheBound() throws Exception {
        dataDir = Files.createTempDirectory("fairledger-it-inflight");
        int postgresPort = Processes.freePort();
        try (ServerProcess server = ServerProcess.start(Map.of(), "serve", "--data-dir", dataDir.toString(),
                "--kafka-port", "0", "--postgres-port", Integer.toString(postgresPort));
                Connection db = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + postgresPort
                        + "/postgres", "postgres", "")) {
            assertThat(single(db, "show fsync")).as("durable by default").isEqualTo("on");
            assertThat(single(db, "show synchronous_commit")).isEqualTo("on");
            // a request that cannot finish: its INSERT waits for this transaction's lock
            db.setAutoCommit(false);
            db.createStatement().execute("lock table cluster in access exclusive mode");
            CompletableFuture<Integer> inFlight = CompletableFuture.supplyAsync(() -> given()
                    .baseUri(server.baseUrl()).contentType(ContentType.JSON)
                    .body("{\"id\":\"stuck\",\"resourceManager\":\"MESOS\"}").post("/api/v1/admin/clusters")
                    .statusCode());
            try (Connection observer = DriverManager.getConnection(
                    "jdbc:postgresql://127.0.0.1:" + postgresPort + "/postgres", "postgres", "")) {
                Awaitility.await().atMost(60, TimeUnit.SECONDS).until(() -> Integer.parseInt(single(observer,
                        "select count(*) from pg_stat_activity where wait_event_type = 'Lock'")) > 0);
            }
            long sent = System.nanoTime();
            assertThat(server.terminate(SHUTDOWN_BOUND)).as("exit code after SIGTERM").isIn(0, 143);
            System.out.printf("[fairledger-it] SIGTERM with a request in flight: exited after %.1f s, the request %s%n",
                    (System.nanoTime() - sent) / 1e9,
                    inFlight.handle((code, e) -> e == null ? "answered " + code : "failed: " + e.getMessage())
                            .getNow("was still open"));
            assertThat(server.output()).contains("embedded Kafka broker stopped")
                    .contains("embedded PostgreSQL stopped");
        }
        assertThat(postgresProcessesUnder(dataDir)).as("postgres processes left running").isZero();
    }

    private static String single(Connection db, String sql) throws Exception {
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static JsonNode account(Path events, Path settings, Path out) throws Exception {
        try (ServerProcess account = ServerProcess.launch(Map.of(), "account", "--events", events.toString(),
                "--config", settings.toString(), "--out", out.toString(), "--until", UNTIL)) {
            assertThat(account.awaitExit(Duration.ofMinutes(3))).as(account.output()).isZero();
        }
        return JSON.readTree(out.resolve("statements.json").toFile());
    }

    private static long postgresProcessesUnder(Path dataDir) {
        String dir = dataDir.toAbsolutePath().toString();
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().map(c -> c.contains("postgres") && c.contains(dir)).orElse(false))
                .count();
    }
}
