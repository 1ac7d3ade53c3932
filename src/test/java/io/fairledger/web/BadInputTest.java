package io.fairledger.web;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Locale;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;
import io.fairledger.testsupport.YarnWorkload;

/**
 * Every kind of bad input answers problem+json naming the rejected input: 400 when it cannot be read as the
 * request's shape, 422 when it is read but not acceptable (docs/api.md).
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class BadInputTest {

    private static final String CLUSTERS = "/api/v1/admin/clusters";
    private static final String CLUSTER = "bad-input";
    private static final String SETTINGS = CLUSTERS + "/" + CLUSTER + "/ledger-settings";
    private static final String VALID_SETTINGS = YarnWorkload.settings(Instant.parse("2026-01-01T00:00:00Z"), 2);

    private static boolean registered;

    @BeforeEach
    void cluster() {
        if (registered) {
            return;
        }
        registered = true;
        given().contentType(ContentType.JSON).body("{\"id\":\"" + CLUSTER + "\",\"resourceManager\":\"YARN\"}")
                .post(CLUSTERS).then().statusCode(201);
        given().contentType(ContentType.JSON).body(VALID_SETTINGS).put(SETTINGS).then().statusCode(200);
        given().contentType(ContentType.JSON).body("{\"weight\":1}").put(CLUSTERS + "/" + CLUSTER + "/tenants/root.a")
                .then().statusCode(200);
    }

    private static ValidatableResponse problem(ValidatableResponse response, int status, String field,
            String message) {
        return response.statusCode(status).contentType(Problem.MEDIA_TYPE).body("status", equalTo(status))
                .body("errors[0].field", equalTo(field)).body("errors[0].message", containsString(message));
    }

    private static ValidatableResponse post(String path, String body) {
        return given().contentType(ContentType.JSON).body(body).post(path).then();
    }

    private static ValidatableResponse put(String path, String body) {
        return given().contentType(ContentType.JSON).body(body).put(path).then();
    }

    @Test
    void anUnknownEnumValueNamesTheFieldAndTheAllowedValues() {
        problem(post(CLUSTERS, "{\"id\":\"slurm\",\"resourceManager\":\"SLURM\"}"), 422, "body.resourceManager",
                "must be one of YARN, MESOS");
        problem(put(SETTINGS, VALID_SETTINGS.replace("\"memory\"", "\"par\":\"SOMETIMES\",\"memory\"")), 422,
                "body.par", "must be one of");
    }

    @Test
    void anUnknownMemberIsRejectedNotIgnored() {
        problem(put(SETTINGS, VALID_SETTINGS.replace("\"memory\"", "\"bogus\":1,\"memory\"")), 422, "body.bogus",
                "is not a known member");
        problem(put(SETTINGS, VALID_SETTINGS.replace("\"mode\":\"FULL\"", "\"mode\":\"FULL\",\"halflife\":\"P1D\"")),
                422, "body.memory.halflife", "halfLife");
        problem(put(CLUSTERS + "/" + CLUSTER + "/tenants/root.a", "{\"weight\":1,\"wieght\":2}"), 422, "body.wieght",
                "is not a known member");
    }

    @Test
    void aValueOfTheWrongJsonTypeIsUnreadable() {
        problem(post(CLUSTERS, "[{\"id\":\"arr\",\"resourceManager\":\"YARN\"}]"), 400, "body", "a JSON object");
        problem(put(CLUSTERS + "/" + CLUSTER + "/tenants/root.a", "{\"weight\":\"heavy\"}"), 400, "body.weight",
                "a finite number");
        problem(put(CLUSTERS + "/" + CLUSTER + "/tenants/root.a", "{\"weight\":{}}"), 400, "body.weight",
                "a finite number");
        problem(post("/api/v1/clusters/" + CLUSTER + "/jobs", "{\"id\":\"j\",\"tasks\":[1],\"deadlineSeconds\":5}"),
                400, "body.tasks", "an integer");
        // a period length is text (PT1H, P1M, or seconds), so a word is a refused value, not a wrong type
        problem(put(SETTINGS, VALID_SETTINGS.replace("\"PT1H\"", "\"hourly\"")), 422, "period.length",
                "ISO-8601 duration");
    }

    @Test
    void notANumberIsUnreadable() {
        problem(post("/api/v1/clusters/" + CLUSTER + "/jobs", "{\"id\":\"j\",\"tasks\":1,\"deadlineSeconds\":\"NaN\"}"),
                400, "body.deadlineSeconds", "a finite number");
        problem(put(SETTINGS, VALID_SETTINGS.replace("\"vcores\":200", "\"vcores\":\"Infinity\"")), 400,
                "body.capacity.vcores", "a finite number");
        problem(post("/api/v1/clusters/" + CLUSTER + "/jobs", "{\"id\":\"j\",\"tasks\":1,\"deadlineSeconds\":NaN}"),
                400, "body.deadlineSeconds", "is not valid JSON");
    }

    @Test
    void aDuplicateMemberIsUnreadable() {
        problem(put(CLUSTERS + "/" + CLUSTER + "/tenants/root.a", "{\"weight\":1,\"weight\":2}"), 400, "body.weight",
                "more than once");
        problem(put(SETTINGS, VALID_SETTINGS.replace("\"mode\":\"FULL\"", "\"mode\":\"FULL\",\"mode\":\"DECAY\"")),
                400, "body.memory.mode", "more than once");
    }

    @Test
    void aWeightTooSmallToStoreIsRejectedNotEchoed() {
        problem(put(CLUSTERS + "/" + CLUSTER + "/tenants/root.a", "{\"weight\":1e-320}"), 422, "body.weight",
                "at most 6 decimal places");
        put(CLUSTERS + "/" + CLUSTER + "/tenants/root.a", "{\"weight\":0.000001}").statusCode(200)
                .body("weight", equalTo(0.000001f));
    }

    @Test
    void nulInAnIdentifierIsRejectedNotAServerError() {
        problem(given().urlEncodingEnabled(false).get(CLUSTERS + "/a%00b").then(), 422, "path", "U+0000");
        problem(given().urlEncodingEnabled(false).contentType(ContentType.JSON).body("{\"weight\":1}")
                .put(CLUSTERS + "/" + CLUSTER + "/tenants/root.a%00b").then(), 422, "path", "U+0000");
        problem(post(CLUSTERS, "{\"id\":\"nul\",\"name\":\"a\\u0000b\",\"resourceManager\":\"YARN\"}"), 422,
                "body.name", "U+0000");
        problem(given().queryParam("cluster", "a\u0000b").get("/api/v1/admin/audit").then(), 422, "query.cluster",
                "U+0000");
    }

    @Test
    void aLimitThatIsNotAnIntegerNamesTheParameter() {
        problem(given().get("/api/v1/admin/audit?limit=abc").then(), 400, "query.limit", "an integer from 1 to 1000");
        problem(given().get("/api/v1/admin/audit?limit=99999999999").then(), 400, "query.limit", "an integer");
        problem(given().get("/api/v1/admin/audit?limit=5000").then(), 400, "query.limit", "from 1 to 1000");
        given().get("/api/v1/admin/audit?limit=1").then().statusCode(200);
    }

    @TestHTTPResource(CLUSTERS)
    URI clusters;

    @Test
    void aBodyOverTheLimitIsTooLarge() throws Exception {
        // the head announces 50 MB; the server refuses on the announced length, before reading the body
        try (Socket socket = new Socket(clusters.getHost(), clusters.getPort())) {
            socket.setSoTimeout(60_000);
            String request = "POST " + CLUSTERS + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + 50 * 1024 * 1024 + "\r\nConnection: close\r\n\r\n{\"id\":";
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            // the connection stays open for the unsent body: read the head and as many bytes as it announces
            BufferedReader in = new BufferedReader(
                    new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            StringBuilder head = new StringBuilder();
            int contentLength = 0;
            for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
                head.append(line).append('\n');
                if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                    contentLength = Integer.parseInt(line.substring(15).strip());
                }
            }
            char[] body = new char[contentLength];
            int read = 0;
            while (read < contentLength) {
                read += in.read(body, read, contentLength - read);
            }
            org.assertj.core.api.Assertions.assertThat(head.toString()).startsWith("HTTP/1.1 413")
                    .containsIgnoringCase("content-type: " + Problem.MEDIA_TYPE);
            org.assertj.core.api.Assertions.assertThat(new String(body)).contains("\"status\":413", "4194304");
        }
    }

    @Test
    void aVeryLongPathIsTooLong() {
        given().get(CLUSTERS + "/" + "x".repeat(10_000)).then().statusCode(414);
    }
}
