package io.fairledger.admission;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.time.Instant;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import io.fairledger.ingest.schema.EventDecoder;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;

/**
 * A job's reported finish may lie ahead of the server's clock by the skew events may ({@link
 * EventDecoder#DEFAULT_MAX_FUTURE_SKEW}), not further: the one clock skew of the server.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class CompletionSkewTest {

    private static final String CLUSTER = "skew-yarn";
    private static final String JOBS = "/api/v1/clusters/" + CLUSTER + "/jobs";

    @Test
    void aFinishBeyondTheEventSkewIsRefusedAndOneWithinItIsTaken() {
        given().contentType(ContentType.JSON).body("{\"id\":\"" + CLUSTER + "\",\"resourceManager\":\"YARN\"}")
                .post("/api/v1/admin/clusters").then().statusCode(201);
        given().contentType(ContentType.JSON).body("""
                {"registeredAt":"2026-11-20T00:00:00Z","capacity":{"vcores":10,"memoryMb":10240,"gpus":0},
                 "tenants":[{"path":"root.a","weight":1}]}""")
                .put("/api/v1/admin/clusters/" + CLUSTER + "/ledger-settings").then().statusCode(200);
        given().contentType(ContentType.JSON).body("{\"id\":\"j\",\"tenant\":\"root.a\",\"tasks\":2,"
                + "\"deadlineSeconds\":1000,\"estimatedCpuSeconds\":50}").post(JOBS).then().statusCode(201)
                .body("job.status", equalTo("RUNNING"));
        // a minute of margin either side, so that the test's and the server's reading of the clock never matter
        Instant beyond = Instant.now().plus(EventDecoder.DEFAULT_MAX_FUTURE_SKEW).plusSeconds(60);
        given().contentType(ContentType.JSON).body(completion(beyond)).post(JOBS + "/j/completion").then()
                .statusCode(422).contentType("application/problem+json")
                .body("detail", containsString("lies in the future"));
        Instant within = Instant.now().plus(EventDecoder.DEFAULT_MAX_FUTURE_SKEW).minusSeconds(60);
        given().contentType(ContentType.JSON).body(completion(within)).post(JOBS + "/j/completion").then()
                .statusCode(200).body("job.status", equalTo("COMPLETED"));
    }

    private static String completion(Instant finishedAt) {
        return "{\"compTimeCpuSeconds\":10,\"finishedAt\":\"" + finishedAt + "\"}";
    }
}
