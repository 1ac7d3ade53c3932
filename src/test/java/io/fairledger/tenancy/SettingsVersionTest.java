package io.fairledger.tenancy;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import jakarta.inject.Inject;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;

/**
 * Settings changes that are safe and visible (docs/api.md, "Concurrent changes" and "Read-your-writes"): every GET and
 * PUT of a cluster's configuration carries its version as a strong {@code ETag}; a PUT on a stale one is refused with
 * 412, a malformed {@code If-Match} with 400; a PUT answers once this replica's reads serve it.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class SettingsVersionTest {

    private static final String CLUSTERS = "/api/v1/admin/clusters";

    @TestHTTPResource("/")
    URI base;

    private static final String SETTINGS = """
            {"registeredAt":"2026-01-01T00:00:00Z","capacity":{"vcores":8,"memoryMb":8192,"gpus":0},
             "period":{"length":"PT1H"},"discountRate":%s,"tenants":[{"path":"root.a","weight":%s}]}""";

    private static void register(String cluster) {
        given().contentType(ContentType.JSON).body("{\"id\":\"" + cluster + "\",\"resourceManager\":\"YARN\"}")
                .post(CLUSTERS).then().statusCode(201);
    }

    private static String putSettings(String cluster, String ifMatch, String rate, String weight, int status) {
        var request = given().contentType(ContentType.JSON).body(SETTINGS.formatted(rate, weight));
        if (ifMatch != null) {
            request = request.header("If-Match", ifMatch);
        }
        return request.put(CLUSTERS + "/" + cluster + "/ledger-settings").then().statusCode(status)
                .extract().header("ETag");
    }

    @Test
    void aChangeOnAStaleVersionIsRefusedAndOneOnTheCurrentIsMade() {
        register("etag-stale");
        String first = putSettings("etag-stale", null, "1", "1", 200);
        String read = given().get(CLUSTERS + "/etag-stale/ledger-settings").then().statusCode(200)
                .extract().header("ETag");
        assertEquals(first, read, "the PUT's ETag is the version a GET then reads");
        assertEquals(read, given().get(CLUSTERS + "/etag-stale/tenants").then().statusCode(200)
                .extract().header("ETag"), "one version covers the settings and the tenant tree");

        // admin 1 changes the weight on what it read; admin 2, who read the same version, is refused
        String second = putSettings("etag-stale", read, "1", "2", 200);
        assertNotEquals(read, second);
        given().contentType(ContentType.JSON).body(SETTINGS.formatted("1", "3")).header("If-Match", read)
                .put(CLUSTERS + "/etag-stale/ledger-settings").then().statusCode(412)
                .contentType("application/problem+json")
                .body("detail", containsString(second)).body("detail", containsString("someone changed it"));
        given().contentType(ContentType.JSON).body("{\"weight\":5}").header("If-Match", read)
                .put(CLUSTERS + "/etag-stale/tenants/root.a").then().statusCode(412);
        given().get(CLUSTERS + "/etag-stale/tenants/root.a").then().statusCode(200).header("ETag", second)
                .body("weight", equalTo(2.0f));

        // a list naming the current version, *, and no header all make the change
        given().contentType(ContentType.JSON).body("{\"weight\":5}").header("If-Match", read + ", " + second)
                .put(CLUSTERS + "/etag-stale/tenants/root.a").then().statusCode(200).header("ETag", not(second))
                .body("weight", equalTo(5));
        putSettings("etag-stale", "*", "1", "6", 200);
        putSettings("etag-stale", null, "1", "7", 200);
    }

    @Test
    void theVersionMovesWithEveryChangeAndWithNothingElse() {
        register("etag-moves");
        String first = putSettings("etag-moves", null, "1", "1", 200);
        assertEquals(first, putSettings("etag-moves", null, "1", "1", 200), "the same document again changes nothing");
        assertEquals(first, given().contentType(ContentType.JSON).body("{\"weight\":1}")
                .put(CLUSTERS + "/etag-moves/tenants/root.a").then().statusCode(200).extract().header("ETag"),
                "the same weight again changes nothing");
        String rate = putSettings("etag-moves", first, "0.5", "1", 200);
        assertNotEquals(first, rate, "a discount rate alone is a change of the settings document");
        String tenant = given().contentType(ContentType.JSON).body("{\"weight\":1}").header("If-Match", rate)
                .put(CLUSTERS + "/etag-moves/tenants/root.b.c").then().statusCode(200).extract().header("ETag");
        assertNotEquals(rate, tenant, "a new tenant (and its new parent) is a change of the tree");
        String weight = given().contentType(ContentType.JSON).body("{\"weight\":0.000001}")
                .header("If-Match", tenant).put(CLUSTERS + "/etag-moves/tenants/root.b.c").then().statusCode(200)
                .extract().header("ETag");
        assertNotEquals(tenant, weight, "the smallest weight step is a change");
        assertEquals(weight, given().get(CLUSTERS + "/etag-moves/tenants").then().statusCode(200)
                .extract().header("ETag"));
    }

    @Inject
    TenancyService tenancy;

    @Test
    void theSettingsKeptUnderAVersionAreThoseStoredUnderIt() {
        String cluster = "kept-settings";
        register(cluster);
        given().contentType(ContentType.JSON).body("""
                {"registeredAt":"2026-01-01T00:00:00Z","capacity":{"vcores":8,"memoryMb":8192,"gpus":0},
                 "period":{"length":"PT1H"},"allowedLateness":"PT5M",
                 "chargeback":{"model":"USAGE","currency":"EUR","plans":[{"name":"std","perVcoreHour":"0.040",
                 "perGbHour":"0.0050","perGpuHour":"1"}]},
                 "tenants":[{"path":"root.a","weight":1},{"path":"root.b","weight":2,"discountRateOverride":0.5}]}""")
                .put(CLUSTERS + "/" + cluster + "/ledger-settings").then().statusCode(200);
        assertKeptAsStored(cluster);
        // an existing tenant changed in place, its override kept; a new one under a new parent; an override alone
        putTenant(cluster, "root.b", "{\"weight\":3.25}");
        assertKeptAsStored(cluster);
        putTenant(cluster, "root.c.d", "{\"weight\":0}");
        assertKeptAsStored(cluster);
        putTenant(cluster, "root.a", "{\"weight\":1,\"discountRateOverride\":0.00001}");
        assertKeptAsStored(cluster);
        given().contentType(ContentType.JSON).body("""
                {"registeredAt":"2026-01-01T00:00:00Z","capacity":{"vcores":8,"memoryMb":8192,"gpus":0},
                 "period":{"length":"PT1H"},"discountRate":0.75,
                 "tenants":[{"path":"root.a","weight":999999.999999}]}""")
                .put(CLUSTERS + "/" + cluster + "/ledger-settings").then().statusCode(200);
        assertKeptAsStored(cluster);
        assertEquals(999_999.999999, QuarkusTransaction.requiringNew().call(() -> tenancy.ledgerSettings(cluster))
                .tenants().get(0).weight());
    }

    private static void putTenant(String cluster, String path, String body) {
        given().contentType(ContentType.JSON).body(body).put(CLUSTERS + "/" + cluster + "/tenants/" + path).then()
                .statusCode(200);
    }

    /** What the server kept under the cluster's version equals what it composes afresh from the database. */
    private void assertKeptAsStored(String cluster) {
        LedgerSettings kept = QuarkusTransaction.requiringNew().call(() -> tenancy.ledgerSettings(cluster));
        LedgerSettings stored = QuarkusTransaction.requiringNew().call(() -> tenancy.readLedgerSettings(cluster));
        assertNotSame(kept, stored, "the first read is the one kept, the second composed again");
        assertEquals(stored, kept);
    }

    @Test
    void aMalformedIfMatchIsABadRequestAndChangesNothing() throws Exception {
        register("etag-malformed");
        String version = putSettings("etag-malformed", null, "1", "1", 200);
        for (String bad : new String[]{"abc", "W/" + version, "\"unclosed", version + " junk"}) {
            given().contentType(ContentType.JSON).body("{\"weight\":9}").header("If-Match", bad)
                    .put(CLUSTERS + "/etag-malformed/tenants/root.a").then().statusCode(400)
                    .contentType("application/problem+json").body("detail", containsString("If-Match"));
        }
        for (String blank : new String[]{"", "   "}) {
            // sent as is (a client library may leave an empty header out)
            HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(base + CLUSTERS.substring(1) + "/etag-malformed/tenants/root.a"))
                    .header("Content-Type", "application/json").header("If-Match", blank)
                    .PUT(HttpRequest.BodyPublishers.ofString("{\"weight\":9}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(400, answer.statusCode(), "If-Match '" + blank + "': " + answer.body());
        }
        given().get(CLUSTERS + "/etag-malformed/ledger-settings").then().statusCode(200).header("ETag", version);
    }

    @Test
    void theReadsRightAfterAChangeServeIt() {
        register("etag-visible");
        // the first settings: the grants read right after answer 200, not 409 "no ledger settings yet"
        given().contentType(ContentType.JSON).body(SETTINGS.formatted("1", "1"))
                .put(CLUSTERS + "/etag-visible/ledger-settings").then().statusCode(200)
                .header("Fairledger-Visible", "true");
        given().get("/api/v1/clusters/etag-visible/grants").then().statusCode(200);
        given().get("/api/v1/clusters/etag-visible/tenants/root.a").then().statusCode(200)
                .body("weight", equalTo(1.0f)).body("discountRate", equalTo(1.0f));

        given().contentType(ContentType.JSON).body(SETTINGS.formatted("0.5", "4"))
                .put(CLUSTERS + "/etag-visible/ledger-settings").then().statusCode(200)
                .header("Fairledger-Visible", "true");
        given().get("/api/v1/clusters/etag-visible/tenants/root.a").then().statusCode(200)
                .body("weight", equalTo(4.0f)).body("discountRate", equalTo(0.5f));

        given().contentType(ContentType.JSON).body("{\"weight\":7,\"discountRateOverride\":0.25}")
                .put(CLUSTERS + "/etag-visible/tenants/root.a").then().statusCode(200)
                .header("Fairledger-Visible", "true");
        given().get("/api/v1/clusters/etag-visible/tenants/root.a").then().statusCode(200)
                .body("weight", equalTo(7.0f)).body("discountRate", equalTo(0.25f));
    }

    @Test
    void aWholeDocumentIsAuditedAsWhatItChanged() throws Exception {
        register("audit-changed");
        String tenants = """
                {"registeredAt":"2026-01-01T00:00:00Z","capacity":{"vcores":8,"memoryMb":8192,"gpus":0},
                 "discountRate":%s,"tenants":[{"path":"root.a","weight":1},{"path":"root.b","weight":%s},
                 {"path":"root.c","weight":1}]}""";
        given().contentType(ContentType.JSON).body(tenants.formatted("0.5", "2"))
                .put(CLUSTERS + "/audit-changed/ledger-settings").then().statusCode(200);
        given().contentType(ContentType.JSON).body(tenants.formatted("0.25", "3"))
                .put(CLUSTERS + "/audit-changed/ledger-settings").then().statusCode(200);
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        var audit = json.readTree(given().queryParam("cluster", "audit-changed").get("/api/v1/admin/audit").then()
                .statusCode(200).extract().asString());
        var change = audit.get(0);
        assertEquals("ledger-settings", change.get("subject").asText());
        var before = json.readTree(change.get("before").asText());
        var after = json.readTree(change.get("after").asText());
        // of three tenants, the one whose weight changed; every other member as it was and as it is
        assertEquals(1, before.get("tenants").size());
        assertEquals("root.b", before.get("tenants").get(0).get("path").asText());
        assertEquals(2.0, before.get("tenants").get(0).get("weight").asDouble());
        assertEquals(1, after.get("tenants").size());
        assertEquals("root.b", after.get("tenants").get(0).get("path").asText());
        assertEquals(3.0, after.get("tenants").get(0).get("weight").asDouble());
        assertEquals(0.5, before.get("discountRate").asDouble());
        assertEquals(0.25, after.get("discountRate").asDouble());
        assertEquals(8, after.get("capacity").get("vcores").asInt());
        // the first document created every tenant: its entry lists them all
        assertEquals(3, json.readTree(audit.get(1).get("after").asText()).get("tenants").size());
    }
}
