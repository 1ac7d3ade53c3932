package io.fairledger.portal;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.fairledger.testsupport.EventPublisher;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;
import io.fairledger.testsupport.YarnWorkload;

/**
 * The portal as the loopback admin of the test profile (standalone mode without OIDC; sign-in, roles and tenant
 * isolation against a real Keycloak are PortalIT's): the pages carry the API's numbers, the statement downloads are
 * the API's, a weight change goes through the what-if preview and lands in the audit trail, and errors are pages.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class PortalPagesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant START = Instant.parse("2026-11-21T00:00:00Z");
    private static final String CLUSTER = "portal-yarn";

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void pagesShowTheApiNumbersAndAWeightChangeGoesThroughThePreview() throws Exception {
        given().contentType(ContentType.JSON).body("{\"id\":\"" + CLUSTER + "\",\"resourceManager\":\"YARN\"}")
                .post("/api/v1/admin/clusters").then().statusCode(201);
        // five-minute periods: the events (24 minutes of them) end four, which the statements and the preview show
        given().contentType(ContentType.JSON).body(YarnWorkload.settings(START, 3).replace("PT1H", "PT5M"))
                .put("/api/v1/admin/clusters/" + CLUSTER + "/ledger-settings").then().statusCode(200);
        List<String> lines = YarnWorkload.lines(CLUSTER, START, 900, 3, 7);
        EventPublisher.publishYarn(bootstrap, CLUSTER, lines);
        long last = 0;
        for (String line : lines) {
            last = Math.max(last, JSON.readTree(line).get("eventTime").asLong());
        }
        String asOf = Instant.ofEpochMilli(last).toString();
        Awaitility.await().atMost(90, TimeUnit.SECONDS).pollInterval(500, TimeUnit.MILLISECONDS)
                .untilAsserted(() -> given().get("/api/v1/clusters/" + CLUSTER + "/grants").then().statusCode(200)
                        .body("asOf", equalTo(asOf)));

        String home = given().get("/portal").then().statusCode(200).contentType(ContentType.HTML).extract().asString();
        assertThat(home).contains("/portal/clusters/" + CLUSTER + "/tenants/root.q1").contains("local-admin");

        String base = "/portal/clusters/" + CLUSTER + "/tenants/root.q1";
        String page = given().get(base).then().statusCode(200).contentType(ContentType.HTML).extract().asString();
        JsonNode api = JSON.readTree(given().get("/api/v1/clusters/" + CLUSTER + "/tenants/root.q1").then()
                .statusCode(200).extract().asString());
        assertThat(value(page, "charge")).isEqualTo(api.get("openPeriod").get("chargeToDate").decimalValue()
                .toString());
        assertThat(Double.parseDouble(value(page, "actual"))).isEqualTo(api.get("openPeriod").get("actual")
                .asDouble());
        assertThat(Double.parseDouble(value(page, "rho"))).isEqualTo(api.get("openPeriod").get("rho").asDouble());
        JsonNode fairness = JSON.readTree(given().get("/api/v1/clusters/" + CLUSTER + "/fairness").then()
                .statusCode(200).extract().asString());
        assertThat(Double.parseDouble(value(page, "jain"))).isEqualTo(fairness.get("jainFairness").asDouble());
        assertThat(page).contains("id=\"grant-words\"").contains("id=\"chart-data\"")
                .contains("/webjars/uplot/1.6.30/dist/uPlot.iife.min.js").doesNotContain("Exception");
        given().get("/webjars/uplot/1.6.30/dist/uPlot.iife.min.js").then().statusCode(200);
        // what finance reads: the Owed column, money with its currency's decimals, each tenant linked
        assertThat(page).contains("<th scope=\"col\">Owed</th>").contains("<td class=\"currency\">XXX</td>")
                .contains("href=\"/portal/clusters/" + CLUSTER + "/tenants/root.q1\"");
        Matcher money = Pattern.compile("class=\"money\" data-value=\"([^\"]*)\">([^<]*)<").matcher(page);
        int amounts = 0;
        while (money.find()) {
            amounts++;
            assertThat(money.group(2)).as("money with two decimals at least").matches("-?[0-9]+\\.[0-9]{2,}");
            assertThat(new java.math.BigDecimal(money.group(2))).isEqualByComparingTo(money.group(1));
        }
        assertThat(amounts).as("charges and totals of the statements").isPositive();

        String csv = given().get(base + "/statements.csv").then().statusCode(200)
                .header("Content-Disposition", org.hamcrest.Matchers.startsWith("attachment")).extract().asString();
        assertThat(csv).isEqualTo(given().accept("text/csv").get("/api/v1/clusters/" + CLUSTER
                + "/tenants/root.q1/statements").then().statusCode(200).extract().asString());
        JsonNode json = JSON.readTree(given().get(base + "/statements.json").then().statusCode(200).extract()
                .asString());
        assertThat(json).isEqualTo(JSON.readTree(given().accept(ContentType.JSON).get("/api/v1/clusters/" + CLUSTER
                + "/tenants/root.q1/statements").then().statusCode(200).extract().asString()));

        String cluster = given().get("/portal/admin/clusters/" + CLUSTER).then().statusCode(200).extract()
                .asString();
        assertThat(cluster).contains("Weight of root.q1").contains("id=\"policy\"").contains("id=\"prices\"")
                .contains("every 5 minutes from 2026-11-21 00:00:00 UTC").contains("<th scope=\"row\">std</th>")
                .contains("<td class=\"money\">0.04</td>").contains("<td class=\"money\">0.005</td>")
                .contains("id=\"discount-rate\"");
        String preview = given().formParam("tenant", "root.q1").formParam("weight", "4")
                .post("/portal/admin/clusters/" + CLUSTER + "/preview").then().statusCode(200).extract().asString();
        assertThat(preview).contains("id=\"apply-form\"").contains("class=\"changed\"")
                .contains("Replayed under today's settings").contains("not the bill");
        given().get("/api/v1/admin/clusters/" + CLUSTER + "/tenants/root.q1").then().body("weight", equalTo(2.0f));
        given().header("Origin", "http://elsewhere.example").formParam("tenant", "root.q1").formParam("weight", "9")
                .post("/portal/admin/clusters/" + CLUSTER + "/apply").then().statusCode(403)
                .contentType(ContentType.HTML);
        given().get("/api/v1/admin/clusters/" + CLUSTER + "/tenants/root.q1").then().body("weight", equalTo(2.0f));
        given().redirects().follow(false).formParam("tenant", "root.q1").formParam("weight", "4")
                .post("/portal/admin/clusters/" + CLUSTER + "/apply").then().statusCode(303);
        given().get("/api/v1/admin/clusters/" + CLUSTER + "/tenants/root.q1").then().body("weight", equalTo(4.0f));
        for (String bad : new String[]{"-1", "1e-320", "2000000"}) {
            given().redirects().follow(false).formParam("tenant", "root.q1").formParam("weight", bad)
                    .post("/portal/admin/clusters/" + CLUSTER + "/apply").then().statusCode(422)
                    .contentType(ContentType.HTML);
        }
        given().get("/api/v1/admin/clusters/" + CLUSTER + "/tenants/root.q1").then().body("weight", equalTo(4.0f));
        String admin = given().get("/portal/admin").then().statusCode(200).extract().asString();
        assertThat(admin).contains("tenant root.q1").contains("local-admin").contains("weight: 2 → 4")
                .doesNotContain("<code>{");

        String missing = given().get("/portal/clusters/" + CLUSTER + "/tenants/root.nope").then().statusCode(404)
                .contentType(ContentType.HTML).extract().asString();
        assertThat(missing).contains("404 Not Found").doesNotContain("Exception").doesNotContain("\tat ");
        given().formParam("tenant", "root.q1").formParam("weight", "heavy")
                .post("/portal/admin/clusters/" + CLUSTER + "/preview").then().statusCode(422)
                .contentType(ContentType.HTML);
        given().get("/portal/no/such/page").then().statusCode(404).contentType(ContentType.HTML);
    }

    private static String value(String html, String id) {
        Matcher m = Pattern.compile("id=\"" + id + "\" data-value=\"([^\"]*)\"").matcher(html);
        assertThat(m.find()).as("a value with id " + id).isTrue();
        return m.group(1);
    }
}
