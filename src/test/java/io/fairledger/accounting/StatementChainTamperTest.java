package io.fairledger.accounting;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import io.fairledger.cli.VerifyCommand;
import io.fairledger.core.chain.ChainVerifier.Reason;
import io.fairledger.core.chain.StatementChain;
import io.fairledger.observability.MetricNames;
import io.fairledger.testsupport.EventPublisher;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;

/**
 * Issue #31's tamper test: closed periods are chained and signed as they close; one digit of one stored statement is
 * then changed in PostgreSQL, and both the server's check (result, metric, log) and {@code fairledger verify} on a
 * download name that period, while {@code verify} holds on a download from before. Hourly periods from
 * 2026-11-20T00:00Z with one hour of allowed lateness: period {@code n} closes at the first fact at or after
 * {@code n + 2} o'clock.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class StatementChainTamperTest {

    private static final ObjectMapper PLAIN = new ObjectMapper();
    private static final String CLUSTER = "chain-tamper";

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Inject
    StatementChainCheck check;

    @Inject
    DataSource dataSource;

    @Inject
    MeterRegistry registry;

    @TempDir
    Path dir;

    @Test
    void aChangedDigitIsNamedByTheServersCheckAndByVerify() throws Exception {
        register();
        EventPublisher.publishYarn(bootstrap, CLUSTER, List.of(
                container("c1", "root.a", 4, "2026-11-20T00:00:00", "2026-11-20T00:40:00"),
                container("c2", "root.b", 2, "2026-11-20T00:10:00", "2026-11-20T01:30:00"),
                container("c3", "root.a", 3, "2026-11-20T01:00:00", "2026-11-20T02:20:00"),
                container("c4", "root.b", 5, "2026-11-20T02:00:00", "2026-11-20T03:10:00"),
                container("c5", "root.a", 1, "2026-11-20T03:00:00", "2026-11-20T04:30:00")));
        // waits on the table, not the API: a statement the API has sent is held in memory (ClosedJsonCache)
        Awaitility.await().atMost(60, TimeUnit.SECONDS)
                .until(() -> query("SELECT count(*) FROM closed_statement WHERE cluster_id = ? "
                        + "AND chain_hash IS NOT NULL").equals("3"));
        assertThat(check.check(CLUSTER)).as("the untampered chain").isEmpty();

        Path keys = dir.resolve("keys.json");
        Files.writeString(keys, given().get("/api/v1/ledger-keys").then().statusCode(200).extract().asString());
        assertThat(PLAIN.readTree(keys.toFile()).at("/keys/0/crv").asText()).isEqualTo("Ed25519");
        // periods 0 and 1, before the change: the server sends them as stored from now on
        Path before = dir.resolve("before.json");
        Files.writeString(before, statements("2026-11-20T02:00:00Z"));
        JsonNode first = PLAIN.readTree(before.toFile()).get(0);
        assertThat(first.at("/chain/sequence").asLong()).isEqualTo(1);
        assertThat(first.at("/chain/previous").asText()).isEqualTo(StatementChain.GENESIS);
        assertThat(PLAIN.readTree(before.toFile()).get(1).at("/chain/previous").asText())
                .isEqualTo(first.at("/chain/hash").asText());
        JsonNode tenant = PLAIN.readTree(given().get("/api/v1/clusters/" + CLUSTER + "/tenants/root.a/statements")
                .then().statusCode(200).extract().asString()).get(0);
        assertThat(tenant.get("chain")).as("a tenant's view carries the cluster statement's chain")
                .isEqualTo(first.get("chain"));
        assertThat(verify(before, keys)).isEqualTo(0);

        String period = query("SELECT period_id FROM closed_statement WHERE cluster_id = ? AND chain_sequence = 3");
        String total = query("SELECT statement ->> 'totalCharge' FROM closed_statement WHERE cluster_id = ? "
                + "AND chain_sequence = 3");
        int last = total.length() - 1;
        String changed = total.substring(0, last) + (char) ('0' + (total.charAt(last) - '0' + 1) % 10);
        update("UPDATE closed_statement SET statement = jsonb_set(statement, '{totalCharge}', '" + changed
                + "'::jsonb), api_json = replace(api_json, '\"totalCharge\":" + total + ",', '\"totalCharge\":"
                + changed + ",') WHERE cluster_id = ? AND chain_sequence = 3");

        List<String> logged = new ArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                logged.add(String.valueOf(record.getMessage()) + " " + List.of(record.getParameters() == null
                        ? new Object[0]
                        : record.getParameters()));
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger logger = Logger.getLogger(StatementChainCheck.class.getName());
        logger.addHandler(handler);
        try {
            assertThat(check.checkAll().get(CLUSTER)).hasValueSatisfying(b -> {
                assertThat(b.period()).isEqualTo(period);
                assertThat(b.reason()).isEqualTo(Reason.HASH);
            });
        } finally {
            logger.removeHandler(handler);
        }
        assertThat(registry.get(MetricNames.STATEMENT_CHAIN_BROKEN).tag(MetricNames.CLUSTER, CLUSTER).gauge()
                .value()).isEqualTo(1.0);
        assertThat(logged).anySatisfy(line -> assertThat(line).contains(period).contains("hash"));

        Path after = dir.resolve("after.json");
        Files.writeString(after, statements("2026-11-20T05:00:00Z"));
        assertThat(PLAIN.readTree(after.toFile()).get(2).get("totalCharge").asText()).isEqualTo(changed);
        StringWriter out = new StringWriter();
        assertThat(verify(after, keys, out)).isEqualTo(VerifyCommand.BROKEN);
        assertThat(out.toString()).startsWith("period " + period + ": hash: ");

        update("UPDATE closed_statement SET statement = jsonb_set(statement, '{totalCharge}', '" + total
                + "'::jsonb), api_json = replace(api_json, '\"totalCharge\":" + changed + ",', '\"totalCharge\":"
                + total + ",') WHERE cluster_id = ? AND chain_sequence = 3");
        assertThat(check.checkAll().get(CLUSTER)).as("restored").isEmpty();
        assertThat(registry.get(MetricNames.STATEMENT_CHAIN_BROKEN).tag(MetricNames.CLUSTER, CLUSTER).gauge()
                .value()).isZero();
    }

    private static int verify(Path statements, Path keys) {
        return verify(statements, keys, new StringWriter());
    }

    private static int verify(Path statements, Path keys, StringWriter out) {
        CommandLine command = new CommandLine(new VerifyCommand());
        command.setOut(new PrintWriter(out, true));
        return command.execute("--statements", statements.toString(), "--keys", keys.toString());
    }

    private static String statements(String until) {
        return given().accept(ContentType.JSON).queryParam("until", Instant.parse(until).toString())
                .get("/api/v1/admin/clusters/" + CLUSTER + "/statements").then().statusCode(200).extract().asString();
    }

    private String query(String sql) throws Exception {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, CLUSTER);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    private void update(String sql) throws Exception {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, CLUSTER);
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
    }

    private static void register() {
        given().contentType(ContentType.JSON).body("{\"id\":\"" + CLUSTER + "\",\"resourceManager\":\"YARN\"}")
                .post("/api/v1/admin/clusters").then().statusCode(201);
        given().contentType(ContentType.JSON).body("""
                {"registeredAt":"2026-11-20T00:00:00Z","capacity":{"vcores":10,"memoryMb":10240,"gpus":0},
                 "discountRate":0.5,"memory":{"mode":"FULL"},"period":{"length":"PT1H"},"allowedLateness":"PT1H",
                 "chargeback":{"model":"USAGE","currency":"EUR","plans":[{"name":"std","perVcoreHour":"1.37",
                 "perGbHour":"0","perGpuHour":"0"}]},"tenants":[{"path":"root.a","weight":1},
                 {"path":"root.b","weight":3}]}""")
                .put("/api/v1/admin/clusters/" + CLUSTER + "/ledger-settings").then().statusCode(200);
    }

    private static String container(String id, String queue, int vcores, String from, String to) {
        return ("{\"type\":\"YarnContainerEvent\",\"eventId\":\"%s\",\"cluster\":\"%s\",\"eventTime\":"
                + "\"%sZ\",\"applicationId\":\"application_1_0001\",\"attemptId\":\"appattempt_1_0001_01\","
                + "\"containerId\":\"%s\",\"queue\":\"%s\",\"user\":\"u\",\"allocatedMemoryMb\":0,"
                + "\"allocatedVcores\":%d,\"node\":\"n1\",\"state\":\"COMPLETE\",\"createdTime\":\"%sZ\","
                + "\"finishedTime\":\"%sZ\"}").formatted(id + "-" + CLUSTER, CLUSTER, to, id, queue, vcores, from, to);
    }
}
