package io.fairledger.accounting;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ManagedContext;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.fairledger.core.model.TenantPath;
import io.fairledger.live.LiveViewsModel.Degree;
import io.fairledger.testsupport.EventPublisher;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;

/**
 * Closed statements read without parsing every stored statement (issue #15, scale): the cluster's statements sent as
 * stored are the same bytes as the statements parsed and written again; a tenant's statements and fairness read from
 * its own line rows equal the same filtered out of every statement; rows stored before the API's text was kept get it
 * at their first read. Hourly periods from 2026-11-20T00:00Z with one hour of allowed lateness, as in
 * {@link BooksThatHoldTest}: period {@code n} closes at the first fact at or after {@code n + 2} o'clock.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class ClosedStatementReadsTest {

    private static final ObjectMapper PLAIN = new ObjectMapper();
    private static final String CLUSTER = "closed-reads";
    /** Every tenant, inner ones and the root; root.a-b and root.a_b sort next to root.a's subtree but are not in it. */
    private static final List<String> TENANTS = List.of("root", "root.a", "root.a.x", "root.a.y", "root.a-b",
            "root.a_b", "root.b");

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Inject
    StatementService statements;

    @Inject
    ObjectMapper json;

    @Inject
    DataSource dataSource;

    @Test
    void storedReadsEqualTheStatementsParsedAndFiltered() throws Exception {
        register();
        publish(container("c1", "root.a.x", 4, "2026-11-20T00:00:00", "2026-11-20T00:40:00"),
                container("c2", "root.a-b", 2, "2026-11-20T00:10:00", "2026-11-20T01:30:00"),
                container("c3", "root.a_b", 3, "2026-11-20T01:00:00", "2026-11-20T02:20:00"),
                container("c4", "root.b", 5, "2026-11-20T02:00:00", "2026-11-20T03:10:00"),
                container("c5", "root.a.y", 1, "2026-11-20T03:00:00", "2026-11-20T04:30:00"));
        awaitAsOf("2026-11-20T04:30:00Z");
        // a late container for period 0, closed by then: an adjustment line in a later statement
        publish(container("c6", "root.a.y", 6, "2026-11-20T00:05:00", "2026-11-20T00:50:00"),
                container("c7", "root.b", 1, "2026-11-20T04:30:00", "2026-11-20T05:30:00"));
        awaitAsOf("2026-11-20T05:30:00Z");
        Instant until = Instant.parse("2026-11-20T05:00:00Z");
        Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(() -> assertThat(
                read(until).stream().filter(s -> s.state().equals(StatementView.CLOSED)))
                .as("periods 0 to 3 closed").hasSize(4));
        List<StatementView> every = read(until);
        assertThat(every).as("period 4 provisional").hasSize(5);
        assertThat(every.stream().flatMap(s -> s.lines().stream()).anyMatch(l -> !l.adjustments().isEmpty()))
                .as("the late container became an adjustment").isTrue();

        String sent = adminStatements(until);
        assertThat(sent).as("as stored, byte for byte").isEqualTo(json.writeValueAsString(every));
        assertThat(adminStatements(until)).as("the closed texts held after the first read").isEqualTo(sent);
        assertThat(adminStatements(Instant.parse("2026-11-20T02:00:00Z"))).as("a prefix of the held texts")
                .isEqualTo(json.writeValueAsString(read(Instant.parse("2026-11-20T02:00:00Z"))));
        assertThat(lineRows()).as("one row per closed line")
                .isEqualTo(every.stream().filter(s -> s.state().equals(StatementView.CLOSED))
                        .mapToLong(s -> s.lines().size()).sum());

        for (String tenant : TENANTS) {
            TenantPath own = TenantPath.parse(tenant);
            List<StatementView> expected = read(Instant.now()).stream()
                    .map(s -> s.withLines(
                            s.lines().stream().filter(l -> TenantPath.parse(l.tenant()).isWithin(own)).toList()))
                    .toList();
            JsonNode bill = PLAIN.readTree(given().accept(ContentType.JSON)
                    .get("/api/v1/clusters/" + CLUSTER + "/tenants/" + tenant + "/statements").then().statusCode(200)
                    .extract().asString());
            assertThat(bill).as("the statements of %s", tenant).isEqualTo(PLAIN.readTree(json.writeValueAsString(
                    expected)));

            JsonNode history = PLAIN.readTree(given().get("/api/v1/clusters/" + CLUSTER + "/tenants/" + tenant
                    + "/fairness").then().statusCode(200).extract().asString()).get("periods");
            List<Degree> degrees = new ArrayList<>();
            for (StatementView s : read(Instant.parse("2026-11-20T05:30:00Z"))) {
                s.lines().stream().filter(l -> l.tenant().equals(tenant)).findFirst().ifPresent(l -> degrees.add(
                        new Degree(s.period(), s.start(), s.end(), s.state().equals(StatementView.CLOSED), l.rho())));
            }
            List<JsonNode> ended = new ArrayList<>();
            history.forEach(ended::add);
            if (!ended.isEmpty() && ended.size() == degrees.size() + 1) {
                assertThat(ended.remove(ended.size() - 1).get("closed").asBoolean()).as("the open period last")
                        .isFalse();
            }
            assertThat((JsonNode) PLAIN.valueToTree(ended)).as("the fairness of %s", tenant)
                    .isEqualTo(PLAIN.readTree(json.writeValueAsString(degrees)));
        }

        // rows stored before the API's text was kept (as after the migration) get it at their first read
        sql("UPDATE closed_statement SET api_json = NULL WHERE cluster_id = '" + CLUSTER + "'");
        assertThat(adminStatements(until)).isEqualTo(sent);
        assertThat(count("SELECT count(*) FROM closed_statement WHERE cluster_id = '" + CLUSTER
                + "' AND api_json IS NULL")).isZero();
    }

    /** The statements of the cluster until {@code until}, every statement parsed, as before stored reads. */
    private List<StatementView> read(Instant until) {
        ManagedContext context = Arc.container().requestContext();
        context.activate();
        try {
            return statements.statements(CLUSTER, until);
        } finally {
            context.terminate();
        }
    }

    private static String adminStatements(Instant until) {
        return given().accept(ContentType.JSON).queryParam("until", until.toString())
                .get("/api/v1/admin/clusters/" + CLUSTER + "/statements").then().statusCode(200)
                .contentType(ContentType.JSON).extract().asString();
    }

    private long lineRows() throws Exception {
        return count("SELECT count(*) FROM closed_statement_line WHERE cluster_id = '" + CLUSTER + "'");
    }

    private long count(String query) throws Exception {
        try (Connection c = dataSource.getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(query)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private void sql(String update) throws Exception {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            st.executeUpdate(update);
        }
    }

    private static void register() {
        given().contentType(ContentType.JSON).body("{\"id\":\"" + CLUSTER + "\",\"resourceManager\":\"YARN\"}")
                .post("/api/v1/admin/clusters").then().statusCode(201);
        given().contentType(ContentType.JSON).body("""
                {"registeredAt":"2026-11-20T00:00:00Z","capacity":{"vcores":10,"memoryMb":10240,"gpus":0},
                 "discountRate":0.5,"memory":{"mode":"FULL"},"period":{"length":"PT1H"},"allowedLateness":"PT1H",
                 "chargeback":{"model":"USAGE","currency":"EUR","plans":[{"name":"std","perVcoreHour":"1",
                 "perGbHour":"0","perGpuHour":"0"}]},"tenants":[{"path":"root.a.x","weight":1},
                 {"path":"root.a.y","weight":2},{"path":"root.a-b","weight":1},{"path":"root.a_b","weight":1},
                 {"path":"root.b","weight":3}]}""")
                .put("/api/v1/admin/clusters/" + CLUSTER + "/ledger-settings").then().statusCode(200);
    }

    private static void awaitAsOf(String asOf) {
        Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(() -> given()
                .get("/api/v1/clusters/" + CLUSTER + "/grants").then().statusCode(200)
                .body("asOf", org.hamcrest.Matchers.equalTo(asOf)));
    }

    private void publish(String... lines) {
        EventPublisher.publishYarn(bootstrap, CLUSTER, List.of(lines));
    }

    private static String container(String id, String queue, int vcores, String from, String to) {
        return ("{\"type\":\"YarnContainerEvent\",\"eventId\":\"%s\",\"cluster\":\"%s\",\"eventTime\":"
                + "\"%sZ\",\"applicationId\":\"application_1_0001\",\"attemptId\":\"appattempt_1_0001_01\","
                + "\"containerId\":\"%s\",\"queue\":\"%s\",\"user\":\"u\",\"allocatedMemoryMb\":0,"
                + "\"allocatedVcores\":%d,\"node\":\"n1\",\"state\":\"COMPLETE\",\"createdTime\":\"%sZ\","
                + "\"finishedTime\":\"%sZ\"}").formatted(id + "-" + CLUSTER, CLUSTER, to, id, queue, vcores, from, to);
    }
}
