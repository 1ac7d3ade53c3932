package io.fairledger.live;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;
import io.fairledger.testsupport.SettingsDocuments;
import io.fairledger.testsupport.TestClusters;

/**
 * A cluster whose live ledger cannot be built (settings stored out of range, as an older version could store them:
 * the attack run's period of 2562047788015 hours) is quarantined: its grants and views answer 503 naming the reason,
 * another cluster's grants answer 200 all along, and a PUT of valid settings repairs it.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class QuarantineTest {

    private static final String BROKEN = "quarantine-broken";
    private static final String HEALTHY = "quarantine-healthy";

    @Inject
    DataSource dataSource;

    @Test
    void aClusterThatCannotBeBuiltAnswers503WhileTheOthersServeAndAValidPutRepairsIt() throws Exception {
        TestClusters.registerYarn(BROKEN, SettingsDocuments.valid());
        TestClusters.registerYarn(HEALTHY, SettingsDocuments.valid());
        Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(
                () -> given().get("/api/v1/clusters/" + BROKEN + "/grants").then().statusCode(200));

        try (Connection c = dataSource.getConnection();
                PreparedStatement update = c.prepareStatement(
                        "UPDATE cluster SET ledger_settings = ?::jsonb WHERE id = ?")) {
            update.setString(1, """
                    {"registeredAt":"2026-11-20T00:00:00Z","capacity":{"vcores":10,"memoryMb":10240,"gpus":0},
                     "period":{"length":"PT2562047788015H"}}""");
            update.setString(2, BROKEN);
            update.executeUpdate();
        }

        Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(
                () -> given().get("/api/v1/clusters/" + BROKEN + "/grants").then().statusCode(503)
                        .contentType("application/problem+json").body("detail", containsString("quarantined"))
                        .body("detail", containsString("must end after it starts")));
        given().get("/api/v1/clusters/" + HEALTHY + "/grants").then().statusCode(200);
        given().get("/api/v1/clusters/" + BROKEN + "/fairness").then().statusCode(503)
                .contentType("application/problem+json");

        given().contentType(ContentType.JSON).body(SettingsDocuments.valid())
                .put("/api/v1/admin/clusters/" + BROKEN + "/ledger-settings").then().statusCode(200);
        Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(
                () -> given().get("/api/v1/clusters/" + BROKEN + "/grants").then().statusCode(200));
        given().get("/api/v1/clusters/" + HEALTHY + "/grants").then().statusCode(200);
    }
}
