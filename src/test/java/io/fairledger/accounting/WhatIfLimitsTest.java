package io.fairledger.accounting;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.notNullValue;

import java.util.List;
import java.util.Random;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;
import io.fairledger.testsupport.SettingsDocuments;
import io.fairledger.testsupport.TestClusters;

/**
 * What-ifs of the attack run on the real server: one in year 999999999 (a 500 of {@code long overflow} before) and
 * one with one-second periods over a day (a server killed by the heap before) are refused with 422 naming the input;
 * a sample of fuzzed windows and variants gets no 5xx, and every 4xx is a problem document.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class WhatIfLimitsTest {

    private static final String CLUSTER = "attack-what-if";
    private static final List<String> INSTANTS = List.of("2026-11-20T00:00:00Z", "2026-11-21T00:00:00Z",
            "2026-11-20T06:00:00Z", "1970-01-01T00:00:00Z", "+999999999-01-01T00:00:00Z",
            "+999999999-01-02T00:00:00Z", "-999999999-01-01T00:00:00Z", "2200-01-01T00:00:00Z", "2026-12-31T00:00:00Z",
            "2026-11-19T00:00:00Z");

    @Test
    void aWhatIfInYear999999999IsRefused() {
        TestClusters.registerYarn(CLUSTER, SettingsDocuments.valid());
        whatIf("{\"from\":\"+999999999-01-01T00:00:00Z\",\"until\":\"+999999999-01-02T00:00:00Z\"}").then()
                .statusCode(422).contentType("application/problem+json").body("errors.field", hasItem("from"))
                .body("errors.field", hasItem("until")).body("errors.message", hasItem(containsString("2200")));
    }

    @Test
    void aWhatIfOfOneSecondPeriodsOverADayIsRefused() {
        TestClusters.registerYarn(CLUSTER + "-s", SettingsDocuments.valid());
        String variant = SettingsDocuments.valid().replace("PT1H", "PT1S");
        given().contentType(ContentType.JSON).body("{\"from\":\"2026-11-20T00:00:00Z\","
                + "\"until\":\"2026-11-21T00:00:00Z\",\"settings\":" + variant + "}")
                .post("/api/v1/admin/clusters/" + CLUSTER + "-s/what-if").then().statusCode(422)
                .contentType("application/problem+json").body("errors.field", hasItem("settings.period.length"));
        // the largest weight a double holds in an entry of earlier, which the what-if replays as given
        String earlier = SettingsDocuments.valid().replace("\"tenants\"", "\"earlier\":[{\"changed\":[{\"path\":"
                + "\"root.a\",\"weight\":1.7976931348623157e308}],\"until\":\"2026-11-20T12:00:00Z\"}],\"tenants\"");
        given().contentType(ContentType.JSON).body("{\"from\":\"2026-11-20T00:00:00Z\","
                + "\"until\":\"2026-11-21T00:00:00Z\",\"settings\":" + earlier + "}")
                .post("/api/v1/admin/clusters/" + CLUSTER + "-s/what-if").then().statusCode(422)
                .contentType("application/problem+json")
                .body("errors.field", hasItem("settings.earlier[0].changed[0].weight"));
        // the earliest instant an entry may end at, before the cluster's registration: a 4xx naming it, never a 5xx
        String beforeRegistration = SettingsDocuments.valid().replace("\"tenants\"", "\"earlier\":[{\"until\":"
                + "\"2000-01-01T00:00:00Z\"}],\"tenants\"");
        given().contentType(ContentType.JSON).body("{\"from\":\"2026-11-20T00:00:00Z\","
                + "\"until\":\"2026-11-21T00:00:00Z\",\"settings\":" + beforeRegistration + "}")
                .post("/api/v1/admin/clusters/" + CLUSTER + "-s/what-if").then().statusCode(422)
                .contentType("application/problem+json").body("detail", containsString("registration"));
        // a minute period over a day is allowed, over 92 days it is too many periods to answer
        String minutes = SettingsDocuments.valid().replace("PT1H", "PT1M");
        given().contentType(ContentType.JSON).body("{\"from\":\"2026-11-20T00:00:00Z\","
                + "\"until\":\"2027-02-19T00:00:00Z\",\"settings\":" + minutes + "}")
                .post("/api/v1/admin/clusters/" + CLUSTER + "-s/what-if").then().statusCode(422)
                .body("errors.field", hasItem("until")).body("errors.message", hasItem(containsString("10000")));
    }

    @Test
    void fuzzedWhatIfsGetNo5xxAndEvery4xxIsAProblem() {
        String cluster = CLUSTER + "-fuzz";
        TestClusters.registerYarn(cluster, SettingsDocuments.valid());
        Random random = new Random(28);
        for (int i = 0; i < 40; i++) {
            String from = INSTANTS.get(random.nextInt(INSTANTS.size()));
            String until = INSTANTS.get(random.nextInt(INSTANTS.size()));
            String body = "{\"from\":\"" + from + "\",\"until\":\"" + until + "\""
                    + (random.nextBoolean() ? ",\"settings\":" + SettingsDocuments.document(random) : "") + "}";
            Response answer = given().contentType(ContentType.JSON).body(body)
                    .post("/api/v1/admin/clusters/" + cluster + "/what-if");
            assertThat(answer.statusCode()).as(body).isLessThan(500);
            if (answer.statusCode() >= 400) {
                answer.then().contentType("application/problem+json").body("status", equalTo(answer.statusCode()))
                        .body("title", notNullValue());
            }
        }
    }

    private static Response whatIf(String body) {
        return given().contentType(ContentType.JSON).body(body).post("/api/v1/admin/clusters/" + CLUSTER + "/what-if");
    }
}
