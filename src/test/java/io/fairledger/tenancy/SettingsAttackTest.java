package io.fairledger.tenancy;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;

import java.sql.Connection;
import java.sql.Statement;
import java.util.Random;

import javax.sql.DataSource;

import jakarta.inject.Inject;

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
 * The attack run's settings documents and tenants, sent to the real server: each is refused with a 422 problem whose
 * {@code errors} name the member and its range, and nothing is stored; a sample of fuzzed documents gets no 5xx, and
 * every 4xx is a problem document.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class SettingsAttackTest {

    private static final String CLUSTER = "attack-settings";

    @Inject
    DataSource dataSource;

    @Test
    void theAttackRunsSettingsAreRefusedNamingTheMember() {
        TestClusters.registerYarn(CLUSTER, SettingsDocuments.valid());
        refused(with("\"period\":{\"length\":\"PT1S\"}"), "period.length", "PT1M");
        refused(with("\"period\":{\"length\":\"PT2562047788015H\"}"), "period.length", "366 days");
        refused(with("\"memory\":{\"mode\":\"ROUNDS\",\"roundLength\":\"PT0.001S\"}"), "memory.roundLength", "PT1M");
        refused(with("\"allowedLateness\":\"PT-1H\""), "allowedLateness", "PT0S");
        refused(SettingsDocuments.valid().replace("2026-11-20T00:00:00Z", "1970-01-01T00:00:00Z"), "registeredAt",
                "2000-01-01");
        refused(with("\"period\":{\"origin\":\"0001-01-01T00:00:00Z\",\"length\":\"P1D\"}"), "period.origin",
                "2200-01-01");
        refused(SettingsDocuments.valid().replace("\"weight\":1", "\"weight\":1e308"), "tenants[0].weight",
                "999999.999999");
        refused(with("\"memory\":{\"mode\":\"SOMETIMES\"}"), "memory.mode", "FULL, ROUNDS or DECAY");
        refused(with("\"chargeback\":{\"model\":\"USAGE\",\"plans\":[{\"name\":\"std\",\"perVcoreHour\":1,"
                + "\"perGbHour\":0,\"perGpuHour\":0}],\"currency\":\"eur\"}"), "chargeback.currency", "ISO 4217");
        refused(SettingsDocuments.valid().replace("root.a", "root..a"), "tenants[0].path", "non-empty");
        // the settings stored are still the valid ones
        given().get("/api/v1/admin/clusters/" + CLUSTER + "/ledger-settings").then().statusCode(200)
                .body("period.length", equalTo(3600.0f));
    }

    @Test
    void theTenantEndpointRefusesWhatItsColumnsCannotHoldAndTreesTooDeep() {
        String cluster = "attack-tenants";
        TestClusters.registerYarn(cluster, SettingsDocuments.valid());
        given().contentType(ContentType.JSON).body("{\"weight\":1000000}")
                .put("/api/v1/admin/clusters/" + cluster + "/tenants/root.big").then().statusCode(422)
                .contentType("application/problem+json").body("errors.field", hasItem("weight"))
                .body("errors.message", hasItem(containsString("from 0 to 999999.999999")));
        given().contentType(ContentType.JSON).body("{\"weight\":999999.999999}")
                .put("/api/v1/admin/clusters/" + cluster + "/tenants/root.big").then().statusCode(200);
        given().contentType(ContentType.JSON).body("{\"weight\":1}")
                .put("/api/v1/admin/clusters/" + cluster + "/tenants/root." + "a.".repeat(1900) + "a").then()
                .statusCode(422).contentType("application/problem+json").body("errors.field", hasItem("path"))
                .body("errors.message", hasItem(containsString("at most 1024 characters")));
        given().contentType(ContentType.JSON).body("{\"weight\":1}")
                .put("/api/v1/admin/clusters/" + cluster + "/tenants/root." + "a.".repeat(16) + "a").then()
                .statusCode(422).body("errors.message", hasItem(containsString("at most 16 levels")));
        given().contentType(ContentType.JSON).body("{\"weight\":1}")
                .put("/api/v1/admin/clusters/" + cluster + "/tenants/root.a.b").then().statusCode(200);
    }

    @Test
    void aClusterHoldingTheLargestNumberOfTenantsRefusesOneMoreByEitherDoor() throws Exception {
        String cluster = "attack-many-tenants";
        TestClusters.registerYarn(cluster, SettingsDocuments.valid());
        // root and root.a are stored; the rest written straight into the table, as a long-lived cluster would hold them
        int stored = SettingsLimits.MAX_TENANTS - 2;
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            st.executeUpdate("insert into tenant (cluster_id, path, parent_path, weight, updated_at) select '"
                    + cluster + "', 'root.t' || g, 'root', 1, now() from generate_series(1, " + stored + ") g");
        }
        try {
            given().contentType(ContentType.JSON).body("{\"weight\":1}")
                    .put("/api/v1/admin/clusters/" + cluster + "/tenants/root.extra").then().statusCode(422)
                    .contentType("application/problem+json").body("errors.field", hasItem("path"))
                    .body("errors.message", hasItem(containsString("would make 50001 tenants of cluster '" + cluster
                            + "', at most 50000 are kept")));
            // a document listing more paths than are looked up one by one, all stored but one
            StringBuilder tenants = new StringBuilder("{\"path\":\"root.extra\",\"weight\":1}");
            for (int i = 1; i <= 600; i++) {
                tenants.append(",{\"path\":\"root.t").append(i).append("\",\"weight\":1}");
            }
            given().contentType(ContentType.JSON)
                    .body(SettingsDocuments.valid().replace("{\"path\":\"root.a\",\"weight\":1}", tenants))
                    .put("/api/v1/admin/clusters/" + cluster + "/ledger-settings").then().statusCode(422)
                    .body("errors.field", hasItem("tenants"))
                    .body("errors.message", hasItem(containsString("would make 50001 tenants")));
            given().get("/api/v1/admin/clusters/" + cluster + "/tenants/root.extra").then().statusCode(404);
        } finally {
            try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
                st.executeUpdate("delete from tenant where cluster_id = '" + cluster + "' and path like 'root.t%'");
            }
        }
    }

    @Test
    void fuzzedSettingsDocumentsGetNo5xxAndEvery4xxIsAProblem() {
        Random random = new Random(28);
        for (int i = 0; i < 40; i++) {
            String cluster = "fuzz-settings-" + i;
            given().contentType(ContentType.JSON).body("{\"id\":\"" + cluster + "\",\"resourceManager\":\"YARN\"}")
                    .post("/api/v1/admin/clusters").then().statusCode(201);
            String document = SettingsDocuments.document(random);
            Response answer = given().contentType(ContentType.JSON).body(document)
                    .put("/api/v1/admin/clusters/" + cluster + "/ledger-settings");
            assertThat(answer.statusCode()).as(document).isLessThan(500);
            if (answer.statusCode() >= 400) {
                answer.then().contentType("application/problem+json").body("status", equalTo(answer.statusCode()))
                        .body("title", notNullValue());
            }
        }
    }

    private static String with(String member) {
        return SettingsDocuments.valid().replace("\"capacity\"", member + ",\"capacity\"")
                .replace("\"period\":{\"length\":\"PT1H\"},", "");
    }

    private static void refused(String document, String member, String range) {
        given().contentType(ContentType.JSON).body(document)
                .put("/api/v1/admin/clusters/" + CLUSTER + "/ledger-settings").then().statusCode(422)
                .contentType("application/problem+json").body("status", equalTo(422))
                .body("errors.field", hasItem(member)).body("errors.message", hasItem(containsString(range)))
                .body("detail", not(containsString("Exception")));
    }
}
