package io.fairledger.retention;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.fairledger.accounting.Books;
import io.fairledger.accounting.SettingsInForce;
import io.fairledger.accounting.StatementService;
import io.fairledger.accounting.StatementView;
import io.fairledger.facts.FactCursor;
import io.fairledger.facts.FactPartitions;
import io.fairledger.facts.LedgerFact;
import io.fairledger.live.BoundedReplays;
import io.fairledger.live.LiveLedger;
import io.fairledger.live.LiveLedgers;
import io.fairledger.live.LiveView;
import io.fairledger.live.LiveViewValues;
import io.fairledger.tenancy.LedgerSettings;
import io.fairledger.testsupport.EventPublisher;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;
import io.fairledger.testsupport.ServedStatements;
import io.fairledger.testsupport.TestClusters;
import io.fairledger.testsupport.YarnWorkload;

/**
 * Retention on the real server (PostgreSQL and Kafka): a cluster's facts span the end of March 2001; the March
 * partition is kept while a period overlapping it is open and while no checkpoint holds it, each refusal audited with
 * its reason; then dropped, audited, with the statements unchanged, a restart exact from the pinned checkpoint, later
 * periods closed as a full replay of every fact would close them, a what-if before the oldest kept instant refused
 * with 422 naming it; then a weight change, a price change, a new tenant and the same document again made from a
 * checkpoint, the live ledger and the statements after them those of every fact under the settings the server returns,
 * and only a capacity change (replayed over the whole history) refused with 409 naming why.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class RetentionTest {

    private static final Instant START = Instant.parse("2001-03-31T23:40:00Z");
    private static final Instant APRIL = Instant.parse("2001-04-01T00:00:00Z");
    private static final String CLUSTER = "retention-yarn";
    private static final String MARCH = "ledger_fact_2001_03";
    /** A pass at this instant keeping one day finds March 2001 due. */
    private static final Instant NOW = Instant.parse("2001-04-03T00:00:00Z");
    private static final Optional<Duration> ONE_DAY = Optional.of(Duration.ofDays(1));
    private static final long GRANT_INTERVAL_MS = 10_000;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Inject
    FactRetention retention;

    @Inject
    LiveLedgers live;

    @Inject
    BoundedReplays replays;

    @Inject
    FactCursor cursor;

    @Inject
    StatementService statements;

    @Inject
    SettingsInForce inForce;

    @Inject
    DataSource dataSource;

    @Inject
    ObjectMapper json;

    @Test
    void aMonthIsDroppedOnlyWhenNothingNeedsItAndTheBooksStayExact() throws Exception {
        String settings = YarnWorkload.settings(START, 4)
                .replace("\"period\":{\"length\":\"PT1H\"}", "\"period\":{\"length\":\"PT2M\"},"
                        + "\"allowedLateness\":\"PT1M\"");
        TestClusters.registerYarn(CLUSTER, settings);
        List<String> lines = new ArrayList<>(YarnWorkload.lines(CLUSTER, START, 1200, 4, 41));
        lines.sort(Comparator.comparingLong(this::eventTime));
        long fourPast = APRIL.plus(Duration.ofMinutes(4)).toEpochMilli();

        // March's facts, stored in the default partition (no month of 2001 has one yet); the periods at the end of
        // March are still open
        publish(lines.stream().filter(l -> eventTime(l) < APRIL.toEpochMilli()).toList());
        long inMarch = cursor.facts(CLUSTER).size();
        assertThat(partitions()).doesNotContain(MARCH);
        FactRetention.Pass open = retention.run(NOW, ONE_DAY);
        assertThat(open.created()).extracting(FactPartitions.Partition::name).as("March's, and months ahead of NOW")
                .contains(MARCH, "ledger_fact_2001_04", "ledger_fact_2001_06");
        assertThat(cursor.facts(CLUSTER)).as("moved out of the default partition, none lost").hasSize((int) inMarch);
        assertThat(query("SELECT count(*) FROM " + MARCH + " WHERE cluster_id = '" + CLUSTER + "'",
                rs -> rs.getString(1))).isEqualTo(Long.toString(inMarch));
        assertThat(refusal(open)).contains("a period overlapping the month is not closed");
        assertThat(partitions()).contains(MARCH);
        assertThat(newestAudit()).contains("\"kept\": true").contains("not closed");

        // April's first minutes close March's periods; the live ledger checkpoints as its period moves
        publish(lines.stream().filter(l -> eventTime(l) >= APRIL.toEpochMilli() && eventTime(l) < fourPast)
                .toList());
        publish(lines.stream().filter(l -> eventTime(l) >= fourPast).toList());
        publish(List.of(YarnWorkload.last(CLUSTER, APRIL.plus(Duration.ofMinutes(30)))));
        Awaitility.await().atMost(60, TimeUnit.SECONDS).pollInSameThread()
                .untilAsserted(() -> assertThat(statements.closedUntil(CLUSTER))
                        .isAfter(APRIL.plus(Duration.ofMinutes(20))));

        // without a checkpoint holding March, March stays
        sql("CREATE TABLE retention_test_saved AS SELECT * FROM ledger_checkpoint WHERE cluster_id = '" + CLUSTER
                + "'");
        sql("DELETE FROM ledger_checkpoint WHERE cluster_id = '" + CLUSTER + "'");
        assertThat(refusal(retention.run(NOW, ONE_DAY))).contains("no usable checkpoint");
        assertThat(partitions()).contains(MARCH);
        sql("INSERT INTO ledger_checkpoint SELECT * FROM retention_test_saved");
        sql("DROP TABLE retention_test_saved");

        List<LedgerFact> allFacts = cursor.facts(CLUSTER);
        LedgerSettings ledgerSettings = inForce.settings(CLUSTER);
        LiveView before = live.find(CLUSTER).orElseThrow();
        String statementsBefore = statementsUntil(APRIL.plus(Duration.ofMinutes(20)));
        long marchFacts = allFacts.stream().filter(f -> f.at() < APRIL.toEpochMilli()).count();
        assertThat(marchFacts).isPositive();

        FactRetention.Pass pass = retention.run(NOW, ONE_DAY);
        assertThat(pass.dropped()).extracting(FactPartitions.Partition::name).contains(MARCH);
        assertThat(partitions()).doesNotContain(MARCH);
        assertThat(cursor.facts(CLUSTER)).as("March's facts are gone, April's kept")
                .hasSize(allFacts.size() - (int) marchFacts).allMatch(f -> f.at() >= APRIL.toEpochMilli());
        String audit = newestAudit();
        assertThat(audit).contains("\"partition\": \"" + MARCH + "\"").contains("\"facts\": ")
                .contains("\"" + CLUSTER + "\"").contains("fairledger-retention");
        Instant floor = Instant.parse(query("SELECT replayable_from_ms FROM retention_floor WHERE cluster_id = '"
                + CLUSTER + "'", rs -> Instant.ofEpochMilli(rs.getLong(1)).toString()));
        assertThat(floor).isAfterOrEqualTo(APRIL).isBefore(APRIL.plus(Duration.ofMinutes(20)));
        assertThat(query("SELECT count(*) FROM ledger_checkpoint WHERE cluster_id = '" + CLUSTER + "' AND pinned "
                + "AND event_time_ms = " + (floor.toEpochMilli() - 1), rs -> rs.getString(1))).isEqualTo("1");
        System.out.printf("[fairledger-test] retention dropped %s (%d facts of %s); replayable from %s%n", MARCH,
                marchFacts, CLUSTER, floor);

        // stored statements unchanged; a restart rebuilds from the pinned checkpoint, exactly
        assertThat(statementsUntil(APRIL.plus(Duration.ofMinutes(20)))).isEqualTo(statementsBefore);
        LiveLedger restarted = replays.build(CLUSTER, ledgerSettings, cursor.horizon());
        assertThat(replays.lastRebuild(CLUSTER).orElseThrow().from()).as("from a checkpoint").isPresent();
        LiveView restartedView = restarted.view(GRANT_INTERVAL_MS);
        LiveView keptAll = new LiveLedger(CLUSTER, ledgerSettings, allFacts).view(GRANT_INTERVAL_MS);
        // the live ledgers hold the ended periods not closed yet only (LiveLedger.release)
        assertThat(LiveViewValues.beforeEnded(restartedView)).usingRecursiveComparison()
                .withComparatorForType(Double::compare, Double.class).isEqualTo(LiveViewValues.beforeEnded(keptAll))
                .isEqualTo(LiveViewValues.beforeEnded(before));
        assertThat(keptAll.ended())
                .endsWith(restartedView.ended().toArray(io.fairledger.core.chargeback.Statement[]::new))
                .endsWith(before.ended().toArray(io.fairledger.core.chargeback.Statement[]::new));

        // later periods close as the full replay of every fact (March's included) states them
        // (another container than the first closing one, whose finish is stored already)
        String closing = YarnWorkload.last(CLUSTER, APRIL.plus(Duration.ofMinutes(50)))
                .replace("_9999_01_000001", "_9999_01_000002");
        publish(List.of(closing));
        Awaitility.await().atMost(60, TimeUnit.SECONDS).pollInSameThread()
                .untilAsserted(() -> assertThat(statements.closedUntil(CLUSTER))
                        .isAfter(APRIL.plus(Duration.ofMinutes(40))));
        List<LedgerFact> withClosing = new ArrayList<>(allFacts);
        cursor.facts(CLUSTER).stream().filter(f -> f.at() >= APRIL.plus(Duration.ofMinutes(50)).toEpochMilli())
                .forEach(withClosing::add);
        Instant closedUntil = statements.closedUntil(CLUSTER);
        JsonNode stored = ServedStatements.withoutChain(json.readTree(statementsUntil(closedUntil)));
        List<StatementView> full = Books.statements(CLUSTER, ledgerSettings, withClosing, closedUntil);
        assertThat(stored.size()).isEqualTo(full.size());
        for (int i = 0; i < full.size(); i++) {
            assertThat(stored.get(i)).as("period " + full.get(i).period())
                    .isEqualTo(json.readTree(json.writeValueAsString(full.get(i).in(StatementView.CLOSED))));
        }

        // a what-if that would replay March is refused, naming the oldest instant still replayable
        String repriced = settings.replace("\"perVcoreHour\":\"0.04\"", "\"perVcoreHour\":\"0.08\"");
        whatIf(START, APRIL.plus(Duration.ofMinutes(20)), repriced).statusCode(422)
                .contentType("application/problem+json").body("detail", containsString(floor.toString()));
        String weighted = settings.replace("{\"path\":\"root.q0\",\"weight\":1}",
                "{\"path\":\"root.q0\",\"weight\":5}");
        whatIf(floor, APRIL.plus(Duration.ofMinutes(20)), weighted).statusCode(422)
                .body("detail", containsString("only a change of prices"));
        whatIf(floor, APRIL.plus(Duration.ofMinutes(20)), repriced).statusCode(200)
                .body("startedFrom", equalTo("checkpoint"));

        // settings changes take effect from the start of the earliest open period, from a checkpoint: made after the
        // drop, a weight change, a new tenant, a price change and the same document again are all made
        String path = "/api/v1/admin/clusters/" + CLUSTER + "/ledger-settings";
        String priced = weighted.replace("\"perVcoreHour\":\"0.04\"", "\"perVcoreHour\":\"0.08\"");
        String withTenant = priced.replace("{\"path\":\"root.q0\",\"weight\":5}",
                "{\"path\":\"root.q0\",\"weight\":5},{\"path\":\"root.qnew\",\"weight\":2}");
        for (String changed : List.of(weighted, priced, withTenant, withTenant)) {
            given().contentType(ContentType.JSON).body(changed).put(path).then().statusCode(200);
        }
        assertThat(replays.lastRebuild(CLUSTER).orElseThrow().from()).as("rebuilt from a checkpoint").isPresent();
        // only a change replayed over the whole history is refused, naming why
        given().contentType(ContentType.JSON).body(withTenant.replace("\"vcores\":200", "\"vcores\":300"))
                .put(path).then().statusCode(409).contentType("application/problem+json")
                .body("detail", containsString("replays its whole history"));

        // the live ledger and the statements closed after the changes are those of every fact (March's included)
        // replayed under the settings document the server returns, as fairledger account replays it
        LedgerSettings changedSettings = json.readValue(given().get(path).then().statusCode(200).extract().asString(),
                LedgerSettings.class);
        assertThat(changedSettings.earlier()).as("the settings before the changes are kept").hasSize(1);
        publish(List.of(YarnWorkload.last(CLUSTER, APRIL.plus(Duration.ofMinutes(90)))
                .replace("_9999_01_000001", "_9999_01_000003")));
        Awaitility.await().atMost(60, TimeUnit.SECONDS).pollInSameThread()
                .untilAsserted(() -> assertThat(statements.closedUntil(CLUSTER))
                        .isAfter(APRIL.plus(Duration.ofMinutes(80))));
        List<LedgerFact> every = new ArrayList<>(allFacts);
        cursor.facts(CLUSTER).stream().filter(f -> f.at() >= APRIL.plus(Duration.ofMinutes(50)).toEpochMilli())
                .forEach(every::add);
        Awaitility.await().atMost(30, TimeUnit.SECONDS).pollInSameThread()
                .untilAsserted(() -> assertThat(live.find(CLUSTER).orElseThrow().facts()).isEqualTo(every.size()));
        LiveView replayedView = new LiveLedger(CLUSTER, changedSettings, every).view(GRANT_INTERVAL_MS);
        LiveView servedView = live.find(CLUSTER).orElseThrow();
        assertThat(LiveViewValues.beforeEnded(servedView)).usingRecursiveComparison()
                .withComparatorForType(Double::compare, Double.class)
                .isEqualTo(LiveViewValues.beforeEnded(replayedView));
        // the live ledger holds the ended periods not closed yet only (LiveLedger.release)
        assertThat(replayedView.ended())
                .endsWith(servedView.ended().toArray(io.fairledger.core.chargeback.Statement[]::new));
        Instant closedAfter = statements.closedUntil(CLUSTER);
        JsonNode storedAfter = ServedStatements.withoutChain(json.readTree(statementsUntil(closedAfter)));
        List<StatementView> replayed = Books.statements(CLUSTER, changedSettings, every, closedAfter);
        assertThat(storedAfter.size()).isEqualTo(replayed.size());
        for (int i = 0; i < replayed.size(); i++) {
            assertThat(storedAfter.get(i)).as("period " + replayed.get(i).period())
                    .isEqualTo(json.readTree(json.writeValueAsString(replayed.get(i).in(StatementView.CLOSED))));
        }
    }

    @Test
    void aPassIsSkippedWhileAnotherReplicaRunsOne() throws Exception {
        try (Connection other = dataSource.getConnection(); Statement st = other.createStatement()) {
            st.execute("SELECT pg_advisory_lock(hashtext('fairledger.retention'))");
            assertThat(retention.run(NOW, ONE_DAY).ran()).as("the other replica holds the lock").isFalse();
            st.execute("SELECT pg_advisory_unlock(hashtext('fairledger.retention'))");
        }
        assertThat(retention.run(Instant.now(), Optional.empty()).ran()).isTrue();
    }

    private io.restassured.response.ValidatableResponse whatIf(Instant from, Instant until, String settings)
            throws Exception {
        var body = json.createObjectNode().put("from", from.toString()).put("until", until.toString());
        body.set("settings", json.readTree(settings));
        return given().contentType(ContentType.JSON).body(body.toString())
                .post("/api/v1/admin/clusters/" + CLUSTER + "/what-if").then();
    }

    private String statementsUntil(Instant until) {
        return given().get("/api/v1/admin/clusters/" + CLUSTER + "/statements?until=" + until).then().statusCode(200)
                .extract().asString();
    }

    /** Publishes {@code part} and waits until the live ledger has applied it. */
    private void publish(List<String> part) {
        EventPublisher.publishYarn(bootstrap, CLUSTER, part);
        long last = part.stream().filter(l -> !l.contains("\"state\":\"RUNNING\"")).mapToLong(this::eventTime).max()
                .orElseThrow();
        String asOf = Instant.ofEpochMilli(last).toString();
        Awaitility.await().atMost(90, TimeUnit.SECONDS).pollInterval(500, TimeUnit.MILLISECONDS)
                .untilAsserted(() -> given().get("/api/v1/clusters/" + CLUSTER + "/grants").then().statusCode(200)
                        .body("asOf", equalTo(asOf)));
    }

    private static String refusal(FactRetention.Pass pass) {
        return pass.refused().stream().filter(r -> r.partition().name().equals(MARCH))
                .map(FactRetention.Refusal::reason)
                .findFirst().orElse("(not refused: " + pass + ")");
    }

    private List<String> partitions() throws Exception {
        try (Connection c = dataSource.getConnection()) {
            return FactPartitions.months(c).stream().map(FactPartitions.Partition::name).toList();
        }
    }

    private String newestAudit() throws Exception {
        return query(
                "SELECT actor || ' ' || coalesce(before_value::text, '') || ' ' || coalesce(after_value::text, '') "
                        + "FROM audit_entry WHERE subject = 'fact-retention " + MARCH + "' ORDER BY id DESC LIMIT 1",
                rs -> rs.getString(1));
    }

    private interface Row {
        String read(ResultSet rs) throws Exception;
    }

    private String query(String sql, Row row) throws Exception {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(sql);
                ResultSet rs = ps.executeQuery()) {
            return rs.next() ? row.read(rs) : null;
        }
    }

    private void sql(String sql) throws Exception {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private long eventTime(String line) {
        try {
            return json.readTree(line).get("eventTime").asLong();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
