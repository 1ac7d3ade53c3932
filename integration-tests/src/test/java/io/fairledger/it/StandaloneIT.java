package io.fairledger.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.fairledger.testsupport.Processes;
import io.restassured.http.ContentType;

/**
 * {@code fairledger serve} with nothing configured: embedded PostgreSQL and Kafka under --data-dir, loopback callers
 * trusted as admin, SIGTERM stops everything, and a restart keeps the data.
 */
class StandaloneIT {

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
    void productionModeNamesAnUnreachableDependency() throws Exception {
        int closed = Processes.freePort();
        try (ServerProcess server = ServerProcess.launch(
                Map.of("QUARKUS_DATASOURCE_JDBC_URL", "jdbc:postgresql://127.0.0.1:" + closed + "/fairledger"),
                "serve")) {
            assertThat(server.awaitExit(Duration.ofSeconds(60))).isEqualTo(1);
            assertThat(server.output()).contains("PostgreSQL at 127.0.0.1:" + closed).contains("is unreachable");
        }
    }

    private static long postgresProcessesUnder(Path dataDir) {
        String dir = dataDir.toAbsolutePath().toString();
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().map(c -> c.contains("postgres") && c.contains(dir)).orElse(false))
                .count();
    }
}
