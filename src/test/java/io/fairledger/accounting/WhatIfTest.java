package io.fairledger.accounting;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fairledger.core.chargeback.Statement;
import io.fairledger.facts.FactCursor;
import io.fairledger.facts.LedgerFact;
import io.fairledger.tenancy.LedgerSettings;
import io.fairledger.testsupport.EventPublisher;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;
import io.fairledger.testsupport.YarnWorkload;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;

/**
 * What-ifs on the real server (PostgreSQL and Kafka): a price change starts from the newest checkpoint of the live
 * ledger at or before the window and gives the same periods as a replay of every stored fact; a weight change under
 * FULL memory replays from the registration (under ROUNDS it starts at a round: {@link WhatIfRoundTest}); a window longer than {@code fairledger.what-if.max-window} is refused naming the maximum.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class WhatIfTest {

    private static final Instant START = Instant.parse("2026-11-21T00:00:00Z");
    private static final String CLUSTER = "whatif-checkpoint-yarn";

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Inject
    FactCursor cursor;

    @Inject
    DataSource dataSource;

    @Inject
    ObjectMapper json;

    @Test
    void aPriceChangeStartsFromACheckpointWithTheNumbersOfTheFullReplay() throws Exception {
        String settings = YarnWorkload.settings(START, 4).replace("\"period\":{\"length\":\"PT1H\"}",
                "\"period\":{\"length\":\"PT2M\"}");
        given().contentType(ContentType.JSON).body("{\"id\":\"" + CLUSTER + "\",\"resourceManager\":\"YARN\"}")
                .post("/api/v1/admin/clusters").then().statusCode(201);
        given().contentType(ContentType.JSON).body(settings)
                .put("/api/v1/admin/clusters/" + CLUSTER + "/ledger-settings").then().statusCode(200);
        // delivered in event-time order, in four parts each applied before the next: no fact is late, so no rebuild
        // deletes a checkpoint, and the live ledger stores one at the end of each part (a period closed meanwhile)
        List<String> lines = new ArrayList<>(YarnWorkload.lines(CLUSTER, START, 600, 4, 31));
        lines.sort(Comparator.comparingLong(this::eventTime));
        long last = 0;
        int part = lines.size() / 4 + 1;
        for (int i = 0; i < lines.size(); i += part) {
            List<String> delivered = lines.subList(i, Math.min(lines.size(), i + part));
            EventPublisher.publishYarn(bootstrap, CLUSTER, delivered);
            for (String line : delivered) {
                if (!line.contains("\"state\":\"RUNNING\"")) { // a RUNNING after its ALLOCATED stores no fact
                    last = Math.max(last, eventTime(line));
                }
            }
            String asOf = Instant.ofEpochMilli(last).toString();
            Awaitility.await().atMost(90, TimeUnit.SECONDS).pollInterval(500, TimeUnit.MILLISECONDS)
                    .untilAsserted(() -> given().get("/api/v1/clusters/" + CLUSTER + "/grants").then()
                            .statusCode(200).body("asOf", equalTo(asOf)));
        }
        List<Long> checkpoints = checkpointTimes();
        assertThat(checkpoints).as("checkpoints stored as periods closed").hasSizeGreaterThan(1);

        // the window opens at the oldest kept checkpoint: the newest checkpoint at or before it is that one
        Instant from = Instant.ofEpochMilli(checkpoints.get(0));
        long lastFact = last;
        Instant until = Instant.ofEpochMilli(lastFact);
        String doubled = settings.replace("\"perVcoreHour\":\"0.04\"", "\"perVcoreHour\":\"0.08\"");
        JsonNode repriced = whatIf(from, until, doubled);
        List<LedgerFact> facts = cursor.facts(CLUSTER);
        assertThat(repriced.get("startedFrom").asText()).isEqualTo("checkpoint");
        assertThat(Instant.parse(repriced.get("startedAt").asText())).isEqualTo(from);
        assertThat(repriced.get("factsReplayed").asLong()).as("only the facts after the checkpoint")
                .isEqualTo(facts.stream().filter(f -> f.at() > from.toEpochMilli() && f.at() <= lastFact).count())
                .isLessThan(facts.size());
        assertThat(repriced.get("periods")).as("periods end in the window").isNotEmpty();
        System.out.printf("[fairledger-test] price what-if from %s: started at the checkpoint of %s, %d of %d facts "
                + "replayed, %d periods%n", from, repriced.get("startedAt").asText(),
                repriced.get("factsReplayed").asLong(), facts.size(), repriced.get("periods").size());

        // the same numbers as the full replay of every stored fact under the doubled prices
        LedgerSettings variant = json.readValue(doubled, LedgerSettings.class);
        List<JsonNode> full = new ArrayList<>();
        for (Statement s : Books.replay(CLUSTER, variant, facts, until).statements()) {
            if (s.period().end() > from.toEpochMilli()) {
                full.add(json.readTree(json.writeValueAsString(StatementView.of(s, StatementView.PROVISIONAL,
                        variant.currency()))));
            }
        }
        assertThat(repriced.get("periods").findValues("statement")).isEqualTo(full);
        // and the same answer as a what-if from the registration, period by period
        JsonNode fromRegistration = whatIf(START, until, doubled);
        assertThat(fromRegistration.get("startedFrom").asText()).isEqualTo("registration");
        List<JsonNode> overlap = new ArrayList<>();
        fromRegistration.get("periods").forEach(p -> {
            if (Instant.parse(p.get("statement").get("end").asText()).isAfter(from)) {
                overlap.add(p);
            }
        });
        assertThat(overlap).isEqualTo(iterable(repriced.get("periods")));

        String weighted = settings.replace("{\"path\":\"root.q0\",\"weight\":1}",
                "{\"path\":\"root.q0\",\"weight\":5}");
        assertThat(weighted).isNotEqualTo(settings);
        JsonNode reweighted = whatIf(from, until, weighted);
        assertThat(reweighted.get("startedFrom").asText()).as("a weight change changes the ledger")
                .isEqualTo("registration");
        assertThat(reweighted.get("factsReplayed").asLong()).isEqualTo(
                facts.stream().filter(f -> f.at() <= lastFact).count());

        given().contentType(ContentType.JSON).body(json.createObjectNode().put("from", START.toString())
                .put("until", START.plus(Duration.ofDays(93)).toString()).toString())
                .post("/api/v1/admin/clusters/" + CLUSTER + "/what-if").then().statusCode(422)
                .contentType("application/problem+json")
                .body("detail", containsString("at most 92 days (fairledger.what-if.max-window)"));
    }

    private JsonNode whatIf(Instant from, Instant until, String settings) throws Exception {
        var body = json.createObjectNode().put("from", from.toString()).put("until", until.toString());
        body.set("settings", json.readTree(settings));
        return json.readTree(given().contentType(ContentType.JSON).body(body.toString())
                .post("/api/v1/admin/clusters/" + CLUSTER + "/what-if").then().statusCode(200).extract().asString());
    }

    private long eventTime(String line) {
        try {
            return json.readTree(line).get("eventTime").asLong();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<JsonNode> iterable(JsonNode array) {
        List<JsonNode> out = new ArrayList<>();
        array.forEach(out::add);
        return out;
    }

    /** The event times of the cluster's stored checkpoints, oldest first. */
    private List<Long> checkpointTimes() throws Exception {
        List<Long> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT event_time_ms FROM ledger_checkpoint "
                        + "WHERE cluster_id = ? ORDER BY event_time_ms")) {
            ps.setString(1, CLUSTER);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getLong(1));
                }
            }
        }
        return out;
    }
}
