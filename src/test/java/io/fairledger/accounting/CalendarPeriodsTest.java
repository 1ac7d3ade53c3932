package io.fairledger.accounting;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import io.fairledger.cli.AccountCommand;
import io.fairledger.testsupport.EventPublisher;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;
import io.fairledger.testsupport.ServedStatements;
import io.fairledger.testsupport.YarnWorkload;

/**
 * Calendar periods on the real server, each equal to what {@code fairledger account} gives from the same file: Berlin
 * months (a cluster registered in the middle of March 2026, GROUP_BUY at 743.00 a month, events over the end of March:
 * March closes from its registration to 2026-03-31T22:00Z, local midnight, at 359.00, stated as prorated), days in
 * Asia/Kolkata (UTC+5:30), ISO weeks from Monday, and a change from hours to days.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class CalendarPeriodsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void theServerClosesABerlinMarchAsTheOfflineCommandDoes() throws Exception {
        String settings = YarnWorkload.settings(Instant.parse("2026-03-16T23:00:00Z"), 2)
                .replace("\"period\":{\"length\":\"PT1H\"}",
                        "\"period\":{\"length\":\"P1M\",\"zone\":\"Europe/Berlin\"}")
                .replaceFirst("(?s)\"chargeback\":\\{.*?\\]\\},",
                        "\"chargeback\":{\"model\":\"GROUP_BUY\",\"costPerPeriod\":743,\"currency\":\"EUR\"},");
        JsonNode offline = serverEqualsAccount("calendar-berlin", settings, Instant.parse("2026-03-31T21:55:00Z"),
                Instant.parse("2026-04-01T00:00:00Z"), "2026-03-31T22:00:00Z");
        assertThat(offline).hasSize(1);
        JsonNode march = offline.get(0);
        assertThat(march.get("period").asText()).isEqualTo("2026-03");
        assertThat(march.get("start").asText()).isEqualTo("2026-03-16T23:00:00Z");
        assertThat(march.get("end").asText()).isEqualTo("2026-03-31T22:00:00Z");
        assertThat(march.get("state").asText()).isEqualTo("closed");
        assertThat(march.get("totalCharge").decimalValue()).isEqualByComparingTo("359.00");
        assertThat(march.get("prorated").get("wholeHours").decimalValue()).isEqualByComparingTo("743");
    }

    /** Days in Asia/Kolkata (UTC+5:30) end at 18:30Z; a registration at noon UTC gives a short first day. */
    @Test
    void theServerCutsKolkataDaysAtLocalMidnightAsTheOfflineCommandDoes() throws Exception {
        String settings = YarnWorkload.settings(Instant.parse("2026-03-16T12:00:00Z"), 2).replace(
                "\"period\":{\"length\":\"PT1H\"}", "\"period\":{\"length\":\"P1D\",\"zone\":\"Asia/Kolkata\"}");
        JsonNode offline = serverEqualsAccount("calendar-kolkata", settings, Instant.parse("2026-03-17T18:25:00Z"),
                Instant.parse("2026-03-17T21:00:00Z"), "2026-03-17T18:30:00Z");
        assertThat(offline).hasSize(2);
        assertThat(offline.get(0).get("start").asText()).isEqualTo("2026-03-16T12:00:00Z");
        assertThat(offline.get(0).get("end").asText()).isEqualTo("2026-03-16T18:30:00Z");
        assertThat(offline.get(1).get("start").asText()).isEqualTo("2026-03-16T18:30:00Z");
        assertThat(offline.get(1).get("end").asText()).isEqualTo("2026-03-17T18:30:00Z");
        assertThat(offline.get(1).get("lines").get(0).get("vcoreSeconds").decimalValue()).isPositive();
    }

    /** ISO weeks from Monday: a registration on Wednesday 2026-03-11 gives a short first week to Monday the 16th. */
    @Test
    void theServerCutsIsoWeeksFromMondayAsTheOfflineCommandDoes() throws Exception {
        String settings = YarnWorkload.settings(Instant.parse("2026-03-11T00:00:00Z"), 2)
                .replace("\"period\":{\"length\":\"PT1H\"}", "\"period\":{\"length\":\"P1W\",\"zone\":\"UTC\"}");
        JsonNode offline = serverEqualsAccount("calendar-weeks", settings, Instant.parse("2026-03-15T23:55:00Z"),
                Instant.parse("2026-03-23T03:00:00Z"), "2026-03-23T00:00:00Z");
        assertThat(offline).hasSize(2);
        assertThat(offline.get(0).get("end").asText()).isEqualTo("2026-03-16T00:00:00Z");
        assertThat(offline.get(1).get("start").asText()).isEqualTo("2026-03-16T00:00:00Z");
        assertThat(offline.get(1).get("end").asText()).isEqualTo("2026-03-23T00:00:00Z");
    }

    /**
     * A schedule change on the server: hours from a registration at noon UTC (10 minutes' lateness), two of them closed,
     * then Kolkata days.
     * The days start at the first Kolkata midnight at or after the open hour (18:30Z); hours go on until then, the last
     * one short (18:00 to 18:30); the closed hours stay as they were; every statement equals {@code fairledger account}
     * given the settings document the server returns (its {@code period.earlier} included).
     */
    @Test
    void aScheduleChangeStartsAtTheNewSchedulesNextBoundaryAndLeavesClosedPeriodsAlone() throws Exception {
        String cluster = "calendar-change";
        String hourly = YarnWorkload.settings(Instant.parse("2026-04-10T12:00:00Z"), 2).replace(
                "\"period\":{\"length\":\"PT1H\"}", "\"period\":{\"length\":\"PT1H\"},\"allowedLateness\":\"PT10M\"");
        List<String> before = new ArrayList<>(YarnWorkload.lines(cluster, Instant.parse("2026-04-10T12:10:00Z"), 20,
                2, 5));
        before.add(YarnWorkload.last(cluster, Instant.parse("2026-04-10T14:15:00Z")));
        given().contentType(ContentType.JSON).body("{\"id\":\"" + cluster + "\",\"resourceManager\":\"YARN\"}")
                .post("/api/v1/admin/clusters").then().statusCode(201);
        given().contentType(ContentType.JSON).body(hourly)
                .put("/api/v1/admin/clusters/" + cluster + "/ledger-settings").then().statusCode(200);
        EventPublisher.publishYarn(bootstrap, cluster, before);
        List<JsonNode> closedHours = new ArrayList<>();
        Awaitility.await().atMost(90, TimeUnit.SECONDS).pollInterval(1, TimeUnit.SECONDS).untilAsserted(() -> {
            closedHours.clear();
            statements(cluster, "2026-04-10T14:00:00Z").forEach(closedHours::add);
            assertThat(closedHours).hasSize(2).allSatisfy(s -> assertThat(s.get("state").asText()).isEqualTo("closed"));
        });

        given().contentType(ContentType.JSON)
                .body(hourly.replace("\"period\":{\"length\":\"PT1H\"}",
                        "\"period\":{\"length\":\"P1D\",\"zone\":\"Asia/Kolkata\"}"))
                .put("/api/v1/admin/clusters/" + cluster + "/ledger-settings").then().statusCode(200);
        String stored = given().accept(ContentType.JSON).get("/api/v1/admin/clusters/" + cluster + "/ledger-settings")
                .then().statusCode(200).extract().asString();
        JsonNode earlier = JSON.readTree(stored).get("period").get("earlier");
        assertThat(earlier).hasSize(1);
        assertThat(earlier.get(0).get("until").asText()).isEqualTo("2026-04-10T18:30:00Z");

        // other applications and containers than the first workload's (the same ids would be duplicates)
        List<String> after = new ArrayList<>(
                YarnWorkload.lines(cluster, Instant.parse("2026-04-11T10:00:00Z"), 20, 2, 6)
                        .stream().map(line -> line.replace("1795251600000_0000", "1795251600000_0001")).toList());
        after.add(YarnWorkload.last(cluster, Instant.parse("2026-04-11T19:00:00Z")).replace("1795251600000_9999",
                "1795251600000_9998"));
        EventPublisher.publishYarn(bootstrap, cluster, after);
        List<String> all = new ArrayList<>(before);
        all.addAll(after);
        JsonNode offline = account(all, stored, "2026-04-11T18:30:00Z");
        // hours 12 to 17, the short hour 18:00 to 18:30, the first Kolkata day
        assertThat(offline).hasSize(8);
        assertThat(offline.get(6).get("start").asText()).isEqualTo("2026-04-10T18:00:00Z");
        assertThat(offline.get(6).get("end").asText()).isEqualTo("2026-04-10T18:30:00Z");
        assertThat(offline.get(7).get("start").asText()).isEqualTo("2026-04-10T18:30:00Z");
        assertThat(offline.get(7).get("end").asText()).isEqualTo("2026-04-11T18:30:00Z");
        double daysUsage = 0;
        for (JsonNode line : offline.get(7).get("lines")) {
            daysUsage += line.get("vcoreSeconds").asDouble();
        }
        assertThat(daysUsage).as("the day's vcore-seconds").isPositive();
        Awaitility.await().atMost(90, TimeUnit.SECONDS).pollInterval(1, TimeUnit.SECONDS).untilAsserted(
                () -> assertThat(statements(cluster, "2026-04-11T18:30:00Z")).isEqualTo(offline));
        JsonNode served = statements(cluster, "2026-04-11T18:30:00Z");
        assertThat(List.of(served.get(0), served.get(1))).as("the hours closed before the change")
                .isEqualTo(closedHours);
    }

    /** The cluster's statements up to {@code until} as the server serves them, their chain aside. */
    private static JsonNode statements(String cluster, String until) throws Exception {
        String body = given().accept(ContentType.JSON).queryParam("until", until)
                .get("/api/v1/admin/clusters/" + cluster + "/statements").then().statusCode(200).extract()
                .asString();
        return ServedStatements.withoutChain(JSON.readTree(body));
    }

    /** {@code fairledger account} over {@code lines} with the settings document, up to {@code until}. */
    private static JsonNode account(List<String> lines, String settings, String until) throws Exception {
        Path dir = Files.createTempDirectory("fairledger-calendar");
        Files.write(dir.resolve("events.jsonl"), lines);
        Files.writeString(dir.resolve("settings.json"), settings);
        int exit = new CommandLine(new AccountCommand()).execute("--events", dir.resolve("events.jsonl").toString(),
                "--config", dir.resolve("settings.json").toString(), "--out", dir.resolve("out").toString(),
                "--until", until, "--quiet");
        assertThat(exit).isZero();
        return JSON.readTree(dir.resolve("out/statements.json").toFile());
    }

    /**
     * Accounts a seeded workload from {@code workloadStart}, with a last event at {@code lastAt}, offline up to
     * {@code until}, registers the cluster on the real server with the same settings and events, and waits until the
     * server's statements up to {@code until} equal the offline ones (its chain aside); the offline statements.
     */
    private JsonNode serverEqualsAccount(String cluster, String settings, Instant workloadStart, Instant lastAt,
            String until) throws Exception {
        List<String> lines = new ArrayList<>(YarnWorkload.lines(cluster, workloadStart, 40, 2, 11));
        // past the last period's end plus the allowed lateness: it closes
        lines.add(YarnWorkload.last(cluster, lastAt));
        JsonNode offline = account(lines, settings, until);
        offline.forEach(statement -> assertThat(statement.get("state").asText()).isEqualTo("closed"));

        given().contentType(ContentType.JSON).body("{\"id\":\"" + cluster + "\",\"resourceManager\":\"YARN\"}")
                .post("/api/v1/admin/clusters").then().statusCode(201);
        given().contentType(ContentType.JSON).body(settings)
                .put("/api/v1/admin/clusters/" + cluster + "/ledger-settings").then().statusCode(200);
        EventPublisher.publishYarn(bootstrap, cluster, lines);

        Awaitility.await().atMost(90, TimeUnit.SECONDS).pollInterval(1, TimeUnit.SECONDS)
                .untilAsserted(() -> assertThat(statements(cluster, until)).isEqualTo(offline));
        return offline;
    }
}
