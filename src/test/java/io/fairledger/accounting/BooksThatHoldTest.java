package io.fairledger.accounting;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.fairledger.observability.MetricNames;
import io.fairledger.testsupport.EventPublisher;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;

/**
 * Issue #15 cases 1-7 on the real server (Kafka, PostgreSQL): hourly periods from 2026-11-20T00:00Z, one hour of
 * allowed lateness, USAGE at 1 per vcore-hour, 10 vcores. Period {@code n} is hour {@code n}; it closes at the first
 * fact at or after {@code n + 2} o'clock.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class BooksThatHoldTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Inject
    MeterRegistry registry;

    /** Case 1: whether the statements were read before a late fact changes nothing; case 3: totals include it. */
    @Test
    void aLateFactBecomesTheSameAdjustmentWhetherOrNotTheStatementsWereRead() throws Exception {
        for (String cluster : List.of("read-first", "never-read")) {
            register(cluster, "0.5", "{\"path\":\"root.a\",\"weight\":1}");
            // 1 vcore for 30 minutes in period 0 (1800 vcore-seconds, 0.50), then a fact at 02:00 closes period 0
            publish(cluster, container(cluster, "c1", "root.a", 1, "00:00:00", "00:30:00"),
                    container(cluster, "c2", "root.a", 1, "02:00:00", "02:00:01"));
            awaitAsOf(cluster, "2026-11-20T02:00:01Z");
        }
        Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(() -> {
            JsonNode read = period("read-first", "2026-11-20T02:00:00Z", 0);
            assertThat(read.get("state").asText()).isEqualTo("closed");
            assertThat(read.get("lines").get(0).get("vcoreSeconds").decimalValue()).isEqualByComparingTo("1800");
        });
        for (String cluster : List.of("read-first", "never-read")) {
            // a late container for period 0 (another 1800 vcore-seconds), then a fact at 03:00 closes period 1
            publish(cluster, container(cluster, "c3", "root.a", 1, "00:30:00", "01:00:00"));
            publish(cluster, container(cluster, "c4", "root.a", 1, "03:00:00", "03:00:01"));
        }
        for (String cluster : List.of("read-first", "never-read")) {
            Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(() -> {
                JsonNode s = statements(cluster, "2026-11-20T02:00:00Z");
                assertThat(s).hasSize(2);
                JsonNode period0 = s.get(0).get("lines").get(0);
                assertThat(period0.get("vcoreSeconds").decimalValue()).as(cluster).isEqualByComparingTo("1800");
                assertThat(period0.get("charge").decimalValue()).as(cluster).isEqualByComparingTo("0.50");
                assertThat(period0.get("adjustments")).as(cluster).isEmpty();
                JsonNode period1 = s.get(1);
                assertThat(period1.get("state").asText()).isEqualTo("closed");
                JsonNode adjustment = period1.get("lines").get(0).get("adjustments").get(0);
                assertThat(adjustment.get("correctedPeriod").asText()).isEqualTo("0");
                assertThat(adjustment.get("amount").decimalValue()).as(cluster).isEqualByComparingTo("0.50");
                assertThat(period1.get("totalCharge").decimalValue()).as("case 3: " + cluster)
                        .isEqualByComparingTo("0.50");
                assertThat(period1.get("currency").asText()).isEqualTo("EUR");
                // item 6: an until a century ahead lists what exists: periods 0 and 1 closed, period 2 ended
                JsonNode all = statements(cluster, "2126-11-23T00:00:00Z");
                assertThat(all).hasSize(3);
                assertThat(all.get(2).get("state").asText()).isEqualTo("provisional");
            });
        }
    }

    /** Case 2: a late fact for a closed period is priced under the settings the period was kept under. */
    @Test
    void anAdjustmentIsPricedUnderTheClosedPeriodsOwnSettings() throws Exception {
        String cluster = "priced-as-kept";
        // no discount for borrowing is eta = 0: only the share-covered part of what a holds is charged
        register(cluster, "0", "{\"path\":\"root.a\",\"weight\":1},{\"path\":\"root.b\",\"weight\":1}");
        // a holds 8 of 10 vcores for 30 minutes in period 0: S = 0.5, g = 0.8, charged 8 x 0.5 h x 0.5/0.8 = 2.50
        publish(cluster, container(cluster, "c1", "root.a", 8, "00:00:00", "00:30:00"),
                container(cluster, "c2", "root.b", 1, "02:00:00", "02:00:01"));
        awaitAsOf(cluster, "2026-11-20T02:00:01Z");
        Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(() -> assertThat(
                line(period(cluster, "2026-11-20T01:00:00Z", 0), "root.a").get("charge").decimalValue())
                .isEqualByComparingTo("2.50"));
        // a's weight becomes 3 (S = 0.75): the change closes period 1 and counts from period 2
        given().contentType(ContentType.JSON).body("{\"weight\":3}")
                .put("/api/v1/admin/clusters/" + cluster + "/tenants/root.a").then().statusCode(200);
        // the same 8 vcores for the other half of period 0, late: 2.50 more under period 0's weights (3.75 under the
        // new ones), then a fact at 04:00 closes period 2, which carries the adjustment
        publish(cluster, container(cluster, "c3", "root.a", 8, "00:30:00", "01:00:00"));
        publish(cluster, container(cluster, "c4", "root.b", 1, "04:00:00", "04:00:01"));
        Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(() -> {
            JsonNode s = statements(cluster, "2026-11-20T03:00:00Z");
            assertThat(s).hasSize(3);
            assertThat(s.get(2).get("state").asText()).isEqualTo("closed");
            JsonNode adjustment = line(s.get(2), "root.a").get("adjustments").get(0);
            assertThat(adjustment.get("correctedPeriod").asText()).isEqualTo("0");
            assertThat(adjustment.get("amount").decimalValue()).isEqualByComparingTo("2.50");
        });
    }

    /** Case 4: making a leaf a parent never removes its usage from a period that has ended. */
    @Test
    void aTreeChangeKeepsUsageBilledInAnEndedPeriod() throws Exception {
        String cluster = "leaf-to-parent";
        register(cluster, "1", "{\"path\":\"root.a\",\"weight\":1},{\"path\":\"root.b\",\"weight\":1}");
        // a: 1 vcore for the whole of period 0 (1.00); a fact at 01:10 ends period 0 without closing it
        publish(cluster, container(cluster, "c1", "root.a", 1, "00:00:00", "01:00:00"),
                container(cluster, "c2", "root.b", 1, "01:00:00", "01:10:00"));
        awaitAsOf(cluster, "2026-11-20T01:10:00Z");
        given().contentType(ContentType.JSON).body("{\"weight\":1}")
                .put("/api/v1/admin/clusters/" + cluster + "/tenants/root.a.x").then().statusCode(200);
        Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(() -> {
            JsonNode period0 = period(cluster, "2026-11-20T01:00:00Z", 0);
            assertThat(period0.get("state").asText()).isEqualTo("closed");
            assertThat(line(period0, "root.a").get("charge").decimalValue()).isEqualByComparingTo("1.00");
            assertThat(period0.get("totalCharge").decimalValue()).isEqualByComparingTo("1.00");
        });
    }

    /**
     * Case 5: inner tenants have lent, borrowed, owed and a balance in the API, the statements and the metrics; every
     * sibling group's balances sum to zero. Case 6: a tenant view states its units once (capacity-hours, as
     * statements).
     */
    @Test
    void innerTenantsLendAndBorrowAndEveryValueIsInCapacityHours() throws Exception {
        String cluster = "inner-lending";
        register(cluster, "1", "{\"path\":\"root.a.x\",\"weight\":1},{\"path\":\"root.a.y\",\"weight\":1},"
                + "{\"path\":\"root.b\",\"weight\":1}");
        // x holds 8 of 10 vcores for an hour: a borrows 0.3 from b, x borrows 0.55 within a, y lends its 0.25
        publish(cluster, container(cluster, "c1", "root.a.x", 8, "00:00:00", "01:00:00"),
                container(cluster, "c2", "root.b", 1, "02:00:00", "02:00:01"));
        Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(() -> {
            JsonNode period0 = period(cluster, "2026-11-20T01:00:00Z", 0);
            JsonNode a = line(period0, "root.a");
            assertThat(a.get("inner").asBoolean()).isTrue();
            assertThat(a.get("borrowed").decimalValue()).isEqualByComparingTo("0.3");
            assertThat(a.get("owed").decimalValue()).isEqualByComparingTo("0.3");
            assertThat(a.get("balance").decimalValue().add(line(period0, "root.b").get("balance").decimalValue()))
                    .isEqualByComparingTo("0");
            assertThat(line(period0, "root.a.x").get("balance").decimalValue()
                    .add(line(period0, "root.a.y").get("balance").decimalValue())).isEqualByComparingTo("0");
            for (JsonNode l : period0.get("lines")) {
                assertThat(l.get("balance").decimalValue())
                        .isEqualByComparingTo(l.get("lent").decimalValue().subtract(l.get("owed").decimalValue()));
            }
        });
        // the open period (period 2) to date: x holds 8 vcores from 02:00:01 to 02:59:59
        publish(cluster, container(cluster, "c3", "root.a.x", 8, "02:00:01", "02:59:59"));
        awaitAsOf(cluster, "2026-11-20T02:59:59Z");
        JsonNode a = JSON.readTree(given().get("/api/v1/clusters/" + cluster + "/tenants/root.a").then()
                .statusCode(200).extract().asString()).get("openPeriod");
        assertThat(a.get("units").asText()).isEqualTo("capacity-hours");
        assertThat(a.get("inner").asBoolean()).isTrue();
        assertThat(a.get("actual").decimalValue()).as("0.8 of the cluster for 59:58").isEqualByComparingTo(
                new BigDecimal("0.8").multiply(new BigDecimal(3598)).divide(new BigDecimal(3600), 6,
                        java.math.RoundingMode.HALF_EVEN));
        assertThat(a.get("borrowed").decimalValue()).isPositive();
        assertThat(a.get("owed").decimalValue()).isPositive();
        assertThat(a.get("lendingBalance").decimalValue())
                .isEqualByComparingTo(a.get("lent").decimalValue().subtract(a.get("owed").decimalValue()));
        Awaitility.await().atMost(30, TimeUnit.SECONDS).untilAsserted(() -> {
            Gauge inner = registry.find(MetricNames.TENANT_LENDING_BALANCE).tags("cluster", cluster, "tenant", "root.a")
                    .gauge();
            Gauge sibling = registry.find(MetricNames.TENANT_LENDING_BALANCE)
                    .tags("cluster", cluster, "tenant", "root.b").gauge();
            assertThat(inner).as("the inner tenant's balance is exported").isNotNull();
            assertThat(inner.value()).isNegative();
            assertThat(inner.value() + sibling.value()).isCloseTo(0, org.assertj.core.api.Assertions.within(1e-6));
        });
    }

    /** Case 7: the cluster resource shows the discount rate the ledger uses. */
    @Test
    void theClusterShowsTheDiscountRateInForce() {
        String cluster = "rate-in-force";
        register(cluster, "0", "{\"path\":\"root.a\",\"weight\":1}");
        given().get("/api/v1/admin/clusters/" + cluster).then().statusCode(200)
                .body("discountRate", org.hamcrest.Matchers.equalTo(0.0f));
        given().get("/api/v1/admin/clusters/" + cluster + "/ledger-settings").then().statusCode(200)
                .body("discountRate", org.hamcrest.Matchers.equalTo(0.0f));
    }

    private static void register(String cluster, String discountRate, String tenants) {
        given().contentType(ContentType.JSON).body("{\"id\":\"" + cluster + "\",\"resourceManager\":\"YARN\"}")
                .post("/api/v1/admin/clusters").then().statusCode(201);
        given().contentType(ContentType.JSON).body("""
                {"registeredAt":"2026-11-20T00:00:00Z","capacity":{"vcores":10,"memoryMb":10240,"gpus":0},
                 "discountRate":%s,"memory":{"mode":"FULL"},"period":{"length":"PT1H"},"allowedLateness":"PT1H",
                 "chargeback":{"model":"USAGE","currency":"EUR","plans":[{"name":"std","perVcoreHour":"1",
                 "perGbHour":"0","perGpuHour":"0"}]},"tenants":[%s]}""".formatted(discountRate, tenants))
                .put("/api/v1/admin/clusters/" + cluster + "/ledger-settings").then().statusCode(200);
    }

    private static JsonNode statements(String cluster, String until) throws Exception {
        return JSON.readTree(given().accept(ContentType.JSON).queryParam("until", until)
                .get("/api/v1/admin/clusters/" + cluster + "/statements").then().statusCode(200).extract().asString());
    }

    /** Statement {@code index} of {@code cluster} until {@code until}; an assertion failure (retried) until it exists. */
    private static JsonNode period(String cluster, String until, int index) throws Exception {
        JsonNode statements = statements(cluster, until);
        if (statements.size() <= index) {
            throw new AssertionError("period " + index + " of " + cluster + " has not ended yet: " + statements);
        }
        return statements.get(index);
    }

    private static JsonNode line(JsonNode statement, String tenant) {
        for (JsonNode l : statement.get("lines")) {
            if (l.get("tenant").asText().equals(tenant)) {
                return l;
            }
        }
        throw new AssertionError("no line of " + tenant + " in " + statement);
    }

    private static void awaitAsOf(String cluster, String asOf) {
        Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(() -> given()
                .get("/api/v1/clusters/" + cluster + "/grants").then().statusCode(200)
                .body("asOf", org.hamcrest.Matchers.equalTo(asOf)));
    }

    private void publish(String cluster, String... lines) {
        EventPublisher.publishYarn(bootstrap, cluster, List.of(lines));
    }

    private static String container(String cluster, String id, String queue, int vcores, String from, String to) {
        return ("{\"type\":\"YarnContainerEvent\",\"eventId\":\"%s\",\"cluster\":\"%s\",\"eventTime\":"
                + "\"2026-11-20T%sZ\",\"applicationId\":\"application_1_0001\",\"attemptId\":\"appattempt_1_0001_01\","
                + "\"containerId\":\"%s\",\"queue\":\"%s\",\"user\":\"u\",\"allocatedMemoryMb\":0,"
                + "\"allocatedVcores\":%d,\"node\":\"n1\",\"state\":\"COMPLETE\",\"createdTime\":\"2026-11-20T%sZ\","
                + "\"finishedTime\":\"2026-11-20T%sZ\"}").formatted(id + "-" + cluster, cluster, to, id, queue, vcores,
                        from, to);
    }
}
