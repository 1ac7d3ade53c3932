package io.fairledger.accounting;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.fairledger.testsupport.EventPublisher;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;
import io.fairledger.testsupport.YarnWorkload;

/**
 * A what-if past its deadline stops and answers 503 problem+json with {@code Retry-After}, on the real server with a
 * deadline of one microsecond: the replay looks at the deadline before its first fact, by which time it has passed.
 */
@QuarkusTest
@TestProfile(WhatIfDeadlineTest.TinyDeadline.class)
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class WhatIfDeadlineTest {

    private static final Instant START = Instant.parse("2026-11-22T00:00:00Z");
    private static final String CLUSTER = "whatif-deadline-yarn";

    /** A what-if deadline no replay meets. */
    public static class TinyDeadline implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("fairledger.what-if.deadline", "PT0.000001S");
        }
    }

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void aWhatIfPastItsDeadlineAnswers503WithRetryAfter() throws Exception {
        given().contentType(ContentType.JSON).body("{\"id\":\"" + CLUSTER + "\",\"resourceManager\":\"YARN\"}")
                .post("/api/v1/admin/clusters").then().statusCode(201);
        given().contentType(ContentType.JSON).body(YarnWorkload.settings(START, 2))
                .put("/api/v1/admin/clusters/" + CLUSTER + "/ledger-settings").then().statusCode(200);
        Instant lastAt = Instant.parse("2026-11-22T01:00:00Z");
        List<String> lines = new java.util.ArrayList<>(YarnWorkload.lines(CLUSTER, START, 50, 2, 7));
        lines.add(YarnWorkload.last(CLUSTER, lastAt));
        EventPublisher.publishYarn(bootstrap, CLUSTER, lines);
        String asOf = lastAt.plusSeconds(1).toString();
        Awaitility.await().atMost(90, TimeUnit.SECONDS).pollInterval(500, TimeUnit.MILLISECONDS)
                .untilAsserted(() -> given().get("/api/v1/clusters/" + CLUSTER + "/grants").then().statusCode(200)
                        .body("asOf", equalTo(asOf)));

        given().contentType(ContentType.JSON)
                .body("{\"from\":\"" + START + "\",\"until\":\"" + lastAt + "\"}")
                .post("/api/v1/admin/clusters/" + CLUSTER + "/what-if").then().statusCode(503)
                .contentType("application/problem+json")
                .header("Retry-After", notNullValue())
                .body("detail", containsString("deadline of PT0.000001S (fairledger.what-if.deadline)"));
    }
}
