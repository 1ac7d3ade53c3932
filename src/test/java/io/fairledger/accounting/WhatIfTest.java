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
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import jakarta.inject.Inject;

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

import io.fairledger.core.chargeback.Statement;
import io.fairledger.facts.FactCursor;
import io.fairledger.facts.LedgerFact;
import io.fairledger.tenancy.LedgerSettings;
import io.fairledger.testsupport.EventPublisher;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;
import io.fairledger.testsupport.TestClusters;
import io.fairledger.testsupport.YarnWorkload;

/**
 * What-ifs on the real server (PostgreSQL and Kafka), each against a replay of every stored fact:
 * <ul>
 * <li>a price change starts from the newest checkpoint of the live ledger at or before the window; a weight change
 * under FULL memory replays from the registration; a window longer than {@code fairledger.what-if.max-window} is
 * refused naming the maximum;</li>
 * <li>a weight change under ROUNDS starts from a stored checkpoint before the round start at or before the window's
 * first period, continues there under the variant, says so ({@code startedFrom} "round", {@code startedAt} the round
 * start), reads fewer facts than a replay from the registration and gives the same periods, statements and fairness
 * as that replay.</li>
 * </ul>
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class WhatIfTest {

    private static final Instant START = Instant.parse("2026-11-21T00:00:00Z");
    private static final String PRICE_CLUSTER = "whatif-checkpoint-yarn";
    private static final String ROUND_CLUSTER = "whatif-round-yarn";
    private static final Duration PERIOD = Duration.ofMinutes(2);
    private static final Duration ROUND = Duration.ofMinutes(6);
    /** Rounds start a minute after the periods, so a period straddles each round start. */
    private static final Instant ROUND_ORIGIN = START.plus(Duration.ofMinutes(1));

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
                "\"period\":{\"length\":\"" + PERIOD + "\"}");
        long lastFact = feedInOrder(PRICE_CLUSTER, settings);
        List<Long> checkpoints = checkpointTimes(PRICE_CLUSTER);
        assertThat(checkpoints).as("checkpoints stored as periods closed").hasSizeGreaterThan(1);

        // the window opens at the oldest kept checkpoint: the newest checkpoint at or before it is that one
        Instant from = Instant.ofEpochMilli(checkpoints.get(0));
        Instant until = Instant.ofEpochMilli(lastFact);
        String doubled = settings.replace("\"perVcoreHour\":\"0.04\"", "\"perVcoreHour\":\"0.08\"");
        JsonNode repriced = whatIf(PRICE_CLUSTER, from, until, doubled);
        List<LedgerFact> facts = cursor.facts(PRICE_CLUSTER);
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
        List<JsonNode> full = fullReplay(PRICE_CLUSTER, variant, facts, from, until);
        assertThat(repriced.get("periods").findValues("statement")).isEqualTo(full);
        // and the same answer as a what-if from the registration, period by period
        JsonNode fromRegistration = whatIf(PRICE_CLUSTER, START, until, doubled);
        assertThat(fromRegistration.get("startedFrom").asText()).isEqualTo("registration");
        List<JsonNode> overlap = endingAfter(fromRegistration.get("periods"), from);
        assertThat(overlap).isEqualTo(endingAfter(repriced.get("periods"), from));

        String weighted = settings.replace("{\"path\":\"root.q0\",\"weight\":1}",
                "{\"path\":\"root.q0\",\"weight\":5}");
        assertThat(weighted).isNotEqualTo(settings);
        JsonNode reweighted = whatIf(PRICE_CLUSTER, from, until, weighted);
        assertThat(reweighted.get("startedFrom").asText()).as("a weight change changes the ledger")
                .isEqualTo("registration");
        assertThat(reweighted.get("factsReplayed").asLong()).isEqualTo(
                facts.stream().filter(f -> f.at() <= lastFact).count());

        given().contentType(ContentType.JSON).body(json.createObjectNode().put("from", START.toString())
                .put("until", START.plus(Duration.ofDays(93)).toString()).toString())
                .post("/api/v1/admin/clusters/" + PRICE_CLUSTER + "/what-if").then().statusCode(422)
                .contentType("application/problem+json")
                .body("detail", containsString("at most 92 days (fairledger.what-if.max-window)"));
    }

    @Test
    void aWeightChangeUnderRoundsStartsAtTheRoundWithTheNumbersOfTheReplayFromTheRegistration() throws Exception {
        String settings = YarnWorkload.settings(START, 4)
                .replace("\"period\":{\"length\":\"PT1H\"}", "\"period\":{\"length\":\"" + PERIOD + "\"}")
                .replace("\"memory\":{\"mode\":\"FULL\"}", "\"memory\":{\"mode\":\"ROUNDS\",\"roundLength\":\"" + ROUND
                        + "\",\"roundOrigin\":\"" + ROUND_ORIGIN + "\"}");
        assertThat(settings).contains("ROUNDS").contains("PT2M");
        long lastFact = feedInOrder(ROUND_CLUSTER, settings);
        List<Long> checkpoints = checkpointTimes(ROUND_CLUSTER);
        assertThat(checkpoints).as("checkpoints stored as periods closed").isNotEmpty();

        // a window whose first period starts more than a round after the oldest kept checkpoint
        Instant until = Instant.ofEpochMilli(lastFact);
        Instant from = Instant.ofEpochMilli(checkpoints.get(0)).plus(Duration.ofMinutes(9));
        assertThat(from).isBefore(until);
        long periodStart = START.toEpochMilli()
                + Math.floorDiv(from.toEpochMilli() - START.toEpochMilli(), PERIOD.toMillis()) * PERIOD.toMillis();
        long roundStart = ROUND_ORIGIN.toEpochMilli()
                + Math.floorDiv(periodStart - ROUND_ORIGIN.toEpochMilli(), ROUND.toMillis()) * ROUND.toMillis();
        assertThat(roundStart).as("the window's first period straddles a round start").isLessThan(periodStart);

        String weighted = settings.replace("{\"path\":\"root.q0\",\"weight\":1}",
                "{\"path\":\"root.q0\",\"weight\":5}");
        assertThat(weighted).isNotEqualTo(settings);
        JsonNode reweighted = whatIf(ROUND_CLUSTER, from, until, weighted);
        List<LedgerFact> facts = cursor.facts(ROUND_CLUSTER);
        long upToUntil = facts.stream().filter(f -> f.at() <= lastFact).count();
        assertThat(reweighted.get("startedFrom").asText()).isEqualTo("round");
        assertThat(Instant.parse(reweighted.get("startedAt").asText())).isEqualTo(Instant.ofEpochMilli(roundStart));
        assertThat(reweighted.get("factsReplayed").asLong()).as("the facts after a checkpoint before the round")
                .isLessThan(upToUntil)
                .isGreaterThanOrEqualTo(facts.stream().filter(f -> f.at() >= roundStart && f.at() <= lastFact).count());
        assertThat(reweighted.get("periods")).as("periods end in the window").isNotEmpty();
        System.out.printf("[fairledger-test] weight what-if from %s: started at the round of %s, %d of %d facts "
                + "replayed, %d periods%n", from, reweighted.get("startedAt").asText(),
                reweighted.get("factsReplayed").asLong(), upToUntil, reweighted.get("periods").size());

        // the same statements as the full replay of every stored fact under the variant
        LedgerSettings variant = json.readValue(weighted, LedgerSettings.class);
        List<JsonNode> full = fullReplay(ROUND_CLUSTER, variant, facts, from, until);
        assertThat(reweighted.get("periods").findValues("statement")).isEqualTo(full);
        // and the same periods, fairness included, as a what-if from the registration
        JsonNode fromRegistration = whatIf(ROUND_CLUSTER, START, until, weighted);
        assertThat(fromRegistration.get("startedFrom").asText()).isEqualTo("registration");
        assertThat(fromRegistration.get("factsReplayed").asLong()).isEqualTo(upToUntil);
        List<JsonNode> overlap = endingAfter(fromRegistration.get("periods"), from);
        assertThat(endingAfter(reweighted.get("periods"), from)).isEqualTo(overlap);

        // the same tenants listed in another order are the same variant: the same answer, from the round
        ObjectNode reordered = (ObjectNode) json.readTree(weighted);
        List<JsonNode> tenants = new ArrayList<>();
        reordered.get("tenants").forEach(tenants::add);
        Collections.reverse(tenants);
        reordered.putArray("tenants").addAll(tenants);
        assertThat(whatIf(ROUND_CLUSTER, from, until, reordered.toString())).isEqualTo(reweighted);
    }

    /**
     * Registers {@code cluster} with {@code settings} and delivers its workload in event-time order, in four parts each
     * applied before the next: no fact is late, so no rebuild deletes a checkpoint, and the live ledger stores one at
     * each period's end. Returns the latest fact's event time.
     */
    private long feedInOrder(String cluster, String settings) {
        TestClusters.registerYarn(cluster, settings);
        List<String> lines = new ArrayList<>(YarnWorkload.lines(cluster, START, 600, 4, 31));
        lines.sort(Comparator.comparingLong(this::eventTime));
        long last = 0;
        int part = lines.size() / 4 + 1;
        for (int i = 0; i < lines.size(); i += part) {
            List<String> delivered = lines.subList(i, Math.min(lines.size(), i + part));
            EventPublisher.publishYarn(bootstrap, cluster, delivered);
            for (String line : delivered) {
                if (!line.contains("\"state\":\"RUNNING\"")) { // a RUNNING after its ALLOCATED stores no fact
                    last = Math.max(last, eventTime(line));
                }
            }
            String asOf = Instant.ofEpochMilli(last).toString();
            Awaitility.await().atMost(90, TimeUnit.SECONDS).pollInterval(500, TimeUnit.MILLISECONDS)
                    .untilAsserted(() -> given().get("/api/v1/clusters/" + cluster + "/grants").then()
                            .statusCode(200).body("asOf", equalTo(asOf)));
        }
        return last;
    }

    private JsonNode whatIf(String cluster, Instant from, Instant until, String settings) throws Exception {
        var body = json.createObjectNode().put("from", from.toString()).put("until", until.toString());
        body.set("settings", json.readTree(settings));
        return json.readTree(given().contentType(ContentType.JSON).body(body.toString())
                .post("/api/v1/admin/clusters/" + cluster + "/what-if").then().statusCode(200).extract().asString());
    }

    /** The statements ending after {@code from} of the replay of every one of {@code facts} under {@code variant}. */
    private List<JsonNode> fullReplay(String cluster, LedgerSettings variant, List<LedgerFact> facts, Instant from,
            Instant until) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (Statement s : Books.replay(cluster, variant, facts, until).statements()) {
            if (s.period().end() > from.toEpochMilli()) {
                out.add(json.readTree(json.writeValueAsString(StatementView.of(s, StatementView.PROVISIONAL,
                        variant.currency()))));
            }
        }
        return out;
    }

    /** The what-if periods of {@code periods} whose statement ends after {@code from}. */
    private static List<JsonNode> endingAfter(JsonNode periods, Instant from) {
        List<JsonNode> out = new ArrayList<>();
        periods.forEach(p -> {
            if (Instant.parse(p.get("statement").get("end").asText()).isAfter(from)) {
                out.add(p);
            }
        });
        return out;
    }

    private long eventTime(String line) {
        try {
            return json.readTree(line).get("eventTime").asLong();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The event times of the cluster's stored checkpoints, oldest first. */
    private List<Long> checkpointTimes(String cluster) throws Exception {
        List<Long> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT event_time_ms FROM ledger_checkpoint "
                        + "WHERE cluster_id = ? ORDER BY event_time_ms")) {
            ps.setString(1, cluster);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getLong(1));
                }
            }
        }
        return out;
    }
}
