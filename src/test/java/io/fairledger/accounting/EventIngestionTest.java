package io.fairledger.accounting;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;

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
import io.restassured.http.ContentType;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import io.fairledger.cli.AccountCommand;
import io.fairledger.testsupport.EventPublisher;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;
import io.fairledger.testsupport.TestClusters;
import io.fairledger.testsupport.YarnWorkload;

/**
 * Events through a real Kafka into the server give the statements {@code fairledger account} computes from the same
 * file, even when every event arrives twice, out of order, and among records that must be dead-lettered.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class EventIngestionTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant START = Instant.parse("2026-11-20T00:00:00Z");

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void duplicatedShuffledEventsAmongGarbageGiveTheOfflineStatements() throws Exception {
        String cluster = "ingest-yarn";
        List<String> lines = new ArrayList<>(YarnWorkload.lines(cluster, START, 2_000, 5, 42));
        // the workload ends within period 0; a container at 03:00, delivered last, brings the watermark past the end of
        // period 1 plus the allowed lateness, so both periods are closed on the server as in the file
        String last = YarnWorkload.last(cluster, Instant.parse("2026-11-20T03:00:00Z"));
        lines.add(last);
        String settings = YarnWorkload.settings(START, 5);
        Path dir = Files.createTempDirectory("fairledger-account");
        Files.write(dir.resolve("events.jsonl"), lines);
        Files.writeString(dir.resolve("settings.json"), settings);
        String until = "2026-11-20T02:00:00Z";
        int exit = new CommandLine(new AccountCommand()).execute("--events", dir.resolve("events.jsonl").toString(),
                "--config", dir.resolve("settings.json").toString(), "--out", dir.resolve("out").toString(),
                "--until", until);
        assertThat(exit).isZero();
        JsonNode offline = JSON.readTree(dir.resolve("out/statements.json").toFile());
        assertThat(offline.size()).as("closed hourly periods").isEqualTo(2);
        assertThat(offline.get(1).get("state").asText()).isEqualTo("closed");
        assertThat(offline.get(0).get("totalCharge").decimalValue()).as("the workload is billed").isPositive();

        given().contentType(ContentType.JSON).body("{\"id\":\"" + cluster + "\",\"resourceManager\":\"YARN\"}")
                .post("/api/v1/admin/clusters").then().statusCode(201);
        given().contentType(ContentType.JSON).body(settings)
                .put("/api/v1/admin/clusters/" + cluster + "/ledger-settings").then().statusCode(200);

        List<String> delivered = new ArrayList<>(lines);
        delivered.addAll(lines);
        shuffleWithinWindows(delivered, 500, new Random(7));
        delivered.add(100, "{\"type\":\"YarnContainerEvent\",\"eventId\":\"bad\"}");
        delivered.add(200, "\u0000\u0001 not json");
        delivered.add(300, lines.get(0).replace("\"allocatedVcores\":", "\"allocatedVcores\":-"));
        delivered.removeIf(last::equals);
        delivered.add(last);
        publish(cluster, delivered);

        Awaitility.await().atMost(90, TimeUnit.SECONDS).pollInterval(1, TimeUnit.SECONDS).untilAsserted(() -> {
            String body = given().accept(ContentType.JSON).queryParam("until", until)
                    .get("/api/v1/admin/clusters/" + cluster + "/statements").then().statusCode(200).extract()
                    .asString();
            JsonNode served = JSON.readTree(body);
            // the server signs what it closes (docs/billing.md); the rest is the offline books
            served.forEach(statement -> ((ObjectNode) statement).remove("chain"));
            assertThat(served).isEqualTo(offline);
        });
    }

    @Test
    void aLateEventForAClosedPeriodBecomesAnAdjustmentInTheNextStatement() throws Exception {
        String cluster = "late-yarn";
        TestClusters.registerHourlyUsage(cluster);
        // one vcore for 30 minutes in period 0, and an event at 03:00 that moves the watermark past 02:30 (period 1 end + lateness)
        publish(cluster, List.of(container(cluster, "c1", "00:00:00", "00:30:00"),
                container(cluster, "c2", "03:00:00", "03:00:01")));
        String path = "/api/v1/admin/clusters/" + cluster + "/statements";
        Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(() -> given()
                .queryParam("until", "2026-11-20T01:00:00Z").get(path).then().statusCode(200)
                .body("[0].lines[0].charge", equalTo(0.5f)));

        // a late container of period 0: one more vcore-hour; periods 0 and 1 closed at 03:00, so the adjustment is
        // carried by the next period to close, period 2, which closes at 04:00 (its end plus 30 minutes passed)
        publish(cluster, List.of(container(cluster, "c3", "00:00:00", "01:00:00")));
        publish(cluster, List.of(container(cluster, "c4", "04:00:00", "04:00:01")));
        Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(() -> given()
                .queryParam("until", "2026-11-20T03:00:00Z").get(path).then().statusCode(200)
                .body("[0].lines[0].charge", equalTo(0.5f))
                .body("[0].lines[0].adjustments", empty())
                .body("[1].lines[0].adjustments", empty())
                .body("[2].state", equalTo("closed"))
                .body("[2].lines[0].adjustments[0].correctedPeriod", equalTo("0"))
                .body("[2].lines[0].adjustments[0].amount", equalTo(1.0f))
                .body("[2].lines[0].total", equalTo(1.0f))
                .body("[2].totalCharge", equalTo(1.0f)));
    }

    private static String container(String cluster, String id, String from, String to) {
        return ("{\"type\":\"YarnContainerEvent\",\"eventId\":\"%s\",\"cluster\":\"%s\",\"eventTime\":"
                + "\"2026-11-20T%sZ\",\"applicationId\":\"application_1_0001\",\"attemptId\":\"appattempt_1_0001_01\","
                + "\"containerId\":\"%s\",\"queue\":\"root.a\",\"user\":\"u\",\"allocatedMemoryMb\":0,"
                + "\"allocatedVcores\":1,\"node\":\"n1\",\"state\":\"COMPLETE\",\"createdTime\":\"2026-11-20T%sZ\","
                + "\"finishedTime\":\"2026-11-20T%sZ\"}").formatted(id, cluster, to, id, from, to);
    }

    private static void shuffleWithinWindows(List<String> lines, int window, Random random) {
        for (int from = 0; from < lines.size(); from += window) {
            Collections.shuffle(lines.subList(from, Math.min(lines.size(), from + window)), random);
        }
    }

    private void publish(String cluster, List<String> lines) {
        EventPublisher.publishYarn(bootstrap, cluster, lines);
    }
}
