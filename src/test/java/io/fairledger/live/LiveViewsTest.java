package io.fairledger.live;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.config.DecoderConfig;
import io.restassured.http.ContentType;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import io.fairledger.cli.AccountCommand;
import io.fairledger.testsupport.EventPublisher;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;
import io.fairledger.testsupport.YarnWorkload;

/**
 * The live ledger over HTTP (the test profile trusts loopback callers as admin; the role matrix is tested against a
 * real Keycloak in integration-tests): grants and statements equal {@code fairledger account} on the same events, a
 * what-if with the live settings equals the live statements, and a settings change is audited and leaves closed
 * periods alone.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class LiveViewsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant START = Instant.parse("2026-11-21T00:00:00Z");

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void grantsAndStatementsOverHttpEqualTheOfflineAccount() throws Exception {
        String cluster = "live-yarn";
        List<String> lines = new ArrayList<>(YarnWorkload.lines(cluster, START, 3_000, 5, 11));
        // the workload ends within period 0: a last container at 03:00, delivered last, closes periods 0 and 1
        String last = YarnWorkload.last(cluster, Instant.parse("2026-11-21T03:00:00Z"));
        lines.add(last);
        String settings = YarnWorkload.settings(START, 5);
        String until = "2026-11-21T02:00:00Z";
        Path out = account(lines, settings, until);
        JsonNode offlineGrants = JSON.readTree(out.resolve("grants.json").toFile());
        JsonNode offlineStatements = JSON.readTree(out.resolve("statements.json").toFile());
        assertThat(offlineGrants.get("levels").get(0).get("grants")).as("five queues granted").hasSize(5);

        register(cluster, settings);
        List<String> delivered = new ArrayList<>(lines);
        delivered.addAll(lines);
        for (int from = 0; from < delivered.size(); from += 400) {
            Collections.shuffle(delivered.subList(from, Math.min(delivered.size(), from + 400)), new Random(from));
        }
        delivered.removeIf(last::equals);
        delivered.add(last);
        EventPublisher.publishYarn(bootstrap, cluster, delivered);

        String base = "/api/v1/clusters/" + cluster;
        Awaitility.await().atMost(90, TimeUnit.SECONDS).pollInterval(1, TimeUnit.SECONDS).untilAsserted(() -> {
            JsonNode grants = JSON.readTree(given().get(base + "/grants").then().statusCode(200).extract().asString());
            assertThat(grants).isEqualTo(offlineGrants);
        });
        String etag = given().get(base + "/grants").then().statusCode(200).header("Content-Encoding", "gzip")
                .extract().header("ETag");
        given().header("If-None-Match", etag).get(base + "/grants").then().statusCode(304);
        JsonNode plain = JSON.readTree(given().config(RestAssured.config().decoderConfig(
                DecoderConfig.decoderConfig().noContentDecoders())).get(base + "/grants").then()
                .statusCode(200).header("Content-Encoding", (String) null).header("ETag", etag).extract().asString());
        assertThat(plain).as("the same grants uncompressed").isEqualTo(offlineGrants);
        // the closer closes the ended periods on its own tick, after the grants show the last event
        Awaitility.await().atMost(60, TimeUnit.SECONDS).pollInterval(1, TimeUnit.SECONDS).untilAsserted(() -> {
            JsonNode statements = JSON.readTree(given().accept(ContentType.JSON).queryParam("until", until)
                    .get("/api/v1/admin/clusters/" + cluster + "/statements").then().statusCode(200).extract()
                    .asString());
            // the server signs what it closes (docs/billing.md); the rest is the offline books
            statements.forEach(statement -> ((ObjectNode) statement).remove("chain"));
            assertThat(statements).isEqualTo(offlineStatements);
        });

        String asOf = offlineGrants.get("asOf").asText();
        given().get(base + "/tenants/root.q1").then().statusCode(200).body("tenant", equalTo("root.q1"))
                .body("asOf", equalTo(asOf)).body("grant.tenant", equalTo("root.q1"));
        given().get(base + "/tenants/root.q1/grant").then().statusCode(200).body("siblings", hasSize(5))
                .body("parent", equalTo("root"));
        given().get(base + "/fairness").then().statusCode(200).body("tenants", equalTo(5));
        JsonNode history = JSON.readTree(given().get(base + "/tenants/root.q1/fairness").then().statusCode(200)
                .extract().asString());
        JsonNode open = history.get("periods").get(history.get("periods").size() - 1);
        assertThat(open.get("closed").asBoolean()).as("the open period comes last").isFalse();
        JsonNode tenantView = JSON.readTree(given().get(base + "/tenants/root.q1").then().extract().asString());
        assertThat(open.get("rho").asDouble()).isEqualTo(tenantView.get("openPeriod").get("rho").asDouble());
        String csv = given().accept("text/csv").get(base + "/tenants/root.q1/statements").then().statusCode(200)
                .extract().asString();
        assertThat(csv.lines().skip(1)).isNotEmpty().allMatch(row -> row.contains(",root.q1,"));
        given().get(base + "/tenants/root.nope").then().statusCode(404).contentType("application/problem+json");
        given().get(base + "/tenants/root..x").then().statusCode(422).contentType("application/problem+json");
        given().get("/api/v1/clusters/no-such-cluster/grants").then().statusCode(404)
                .contentType("application/problem+json").body("status", equalTo(404));
    }

    @Test
    void whatIfWithTheLiveSettingsEqualsTheLiveStatementsAndAVariantChangesNothingLive() throws Exception {
        String cluster = "whatif-yarn";
        String settings = YarnWorkload.settings(START, 3);
        register(cluster, settings);
        List<String> lines = new ArrayList<>(YarnWorkload.lines(cluster, START, 1_500, 3, 5));
        lines.add(YarnWorkload.last(cluster, Instant.parse("2026-11-21T01:00:00Z"))); // period 0 has ended
        EventPublisher.publishYarn(bootstrap, cluster, lines);
        awaitEvery(cluster, lines);
        String statementsPath = "/api/v1/admin/clusters/" + cluster + "/statements";
        String until = "2026-11-21T01:00:00Z";
        JsonNode live = JSON.readTree(given().queryParam("until", until).get(statementsPath).then().statusCode(200)
                .extract().asString());
        JsonNode same = whatIf(cluster, null, until);
        assertThat(same.get(0).get("statement")).isEqualTo(((ObjectNode) live.get(0).deepCopy()).without("chain"));
        assertThat(same.get(0).get("sharingLoss").asDouble()).isLessThanOrEqualTo(0);

        String doubled = settings.replace("\"perVcoreHour\":\"0.04\"", "\"perVcoreHour\":\"0.08\"");
        JsonNode variant = whatIf(cluster, JSON.readTree(doubled), until);
        assertThat(variant.get(0).get("statement").get("totalCharge").decimalValue())
                .isGreaterThan(live.get(0).get("totalCharge").decimalValue());
        JsonNode after = JSON.readTree(given().queryParam("until", until).get(statementsPath).then().statusCode(200)
                .extract().asString());
        assertThat(after).as("a what-if changes nothing live").isEqualTo(live);

        given().contentType(ContentType.JSON)
                .body("{\"from\":\"2026-11-21T01:00:00Z\",\"until\":\"2026-11-21T00:00:00Z\"}")
                .post("/api/v1/admin/clusters/" + cluster + "/what-if").then().statusCode(422)
                .contentType("application/problem+json");
        given().contentType(ContentType.JSON).body("{\"until\":\"2026-11-21T00:00:00Z\"}")
                .post("/api/v1/admin/clusters/" + cluster + "/what-if").then().statusCode(422)
                .contentType("application/problem+json");
    }

    @Test
    void aChangeIsAuditedAndNeverRewritesAClosedPeriod() throws Exception {
        String cluster = "audit-yarn";
        String settings = YarnWorkload.settings(START, 2).replace("\"period\":{\"length\":\"PT1H\"}",
                "\"period\":{\"length\":\"PT5M\"},\"allowedLateness\":\"PT1M\"");
        register(cluster, settings);
        List<String> lines = YarnWorkload.lines(cluster, START, 600, 2, 3);
        EventPublisher.publishYarn(bootstrap, cluster, lines);
        awaitEvery(cluster, lines);
        String statementsPath = "/api/v1/admin/clusters/" + cluster + "/statements";
        String until = "2026-11-21T00:05:00Z";
        // the server closes period 0 itself once the watermark passes 00:06 (its end plus the lateness)
        Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(() -> given().queryParam("until", until)
                .get(statementsPath).then().statusCode(200).body("[0].state", equalTo("closed")));
        JsonNode closed = JSON.readTree(given().queryParam("until", until).get(statementsPath).then().statusCode(200)
                .extract().asString());

        given().contentType(ContentType.JSON).body("{\"weight\":7}")
                .put("/api/v1/admin/clusters/" + cluster + "/tenants/root.q0").then().statusCode(200);
        JsonNode again = JSON.readTree(given().queryParam("until", until).get(statementsPath).then().statusCode(200)
                .extract().asString());
        assertThat(again).as("the closed period is as it was closed").isEqualTo(closed);

        JsonNode audit = JSON.readTree(given().queryParam("cluster", cluster).get("/api/v1/admin/audit").then()
                .statusCode(200).extract().asString());
        assertThat(audit.get(0).get("subject").asText()).isEqualTo("tenant root.q0");
        assertThat(audit.get(0).get("actor").asText()).isNotBlank();
        assertThat(JSON.readTree(audit.get(0).get("before").asText()).get("weight").asInt()).isEqualTo(1);
        assertThat(JSON.readTree(audit.get(0).get("after").asText()).get("weight").asInt()).isEqualTo(7);
        assertThat(Instant.parse(audit.get(0).get("effectiveFrom").asText()))
                .as("counts from the end of the last closed period").isAfterOrEqualTo(Instant.parse(until));
        assertThat(audit.findValuesAsText("subject")).contains("ledger-settings", "cluster");
    }

    /** Waits until the live ledger has applied the last of {@code lines}. */
    static void awaitEvery(String cluster, List<String> lines) throws Exception {
        long last = 0;
        for (String line : lines) {
            last = Math.max(last, JSON.readTree(line).get("eventTime").asLong());
        }
        String asOf = Instant.ofEpochMilli(last).toString();
        Awaitility.await().atMost(90, TimeUnit.SECONDS).pollInterval(500, TimeUnit.MILLISECONDS)
                .untilAsserted(() -> given().get("/api/v1/clusters/" + cluster + "/grants").then().statusCode(200)
                        .body("asOf", equalTo(asOf)));
    }

    static void register(String cluster, String settings) {
        given().contentType(ContentType.JSON).body("{\"id\":\"" + cluster + "\",\"resourceManager\":\"YARN\"}")
                .post("/api/v1/admin/clusters").then().statusCode(201);
        given().contentType(ContentType.JSON).body(settings)
                .put("/api/v1/admin/clusters/" + cluster + "/ledger-settings").then().statusCode(200);
    }

    private static JsonNode whatIf(String cluster, JsonNode settings, String until) throws Exception {
        var body = JSON.createObjectNode().put("from", START.toString()).put("until", until);
        if (settings != null) {
            body.set("settings", settings);
        }
        return JSON.readTree(given().contentType(ContentType.JSON).body(body.toString())
                .post("/api/v1/admin/clusters/" + cluster + "/what-if").then().statusCode(200).extract().asString())
                .get("periods");
    }

    static Path account(List<String> lines, String settings, String until) throws Exception {
        Path dir = Files.createTempDirectory("fairledger-live");
        Files.write(dir.resolve("events.jsonl"), lines);
        Files.writeString(dir.resolve("settings.json"), settings);
        int exit = new CommandLine(new AccountCommand()).execute("--events", dir.resolve("events.jsonl").toString(),
                "--config", dir.resolve("settings.json").toString(), "--out", dir.resolve("out").toString(),
                "--until", until);
        assertThat(exit).isZero();
        return dir.resolve("out");
    }
}
