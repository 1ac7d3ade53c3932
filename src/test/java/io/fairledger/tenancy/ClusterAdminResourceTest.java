package io.fairledger.tenancy;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;

@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class ClusterAdminResourceTest {

    private static final String CLUSTERS = "/api/v1/admin/clusters";

    @Test
    void registersAClusterAndBuildsItsTenantTree() {
        given().contentType(ContentType.JSON).body("{\"id\":\"tree-yarn\",\"resourceManager\":\"YARN\"}")
                .post(CLUSTERS)
                .then().statusCode(201).header("Location", containsString("/api/v1/admin/clusters/tree-yarn"));

        given().contentType(ContentType.JSON).body("{\"weight\":3,\"discountRateOverride\":0.5}")
                .put(CLUSTERS + "/tree-yarn/tenants/root.analytics.etl")
                .then().statusCode(200)
                .body("parent", equalTo("root.analytics"))
                .body("weight", equalTo(3));

        given().get(CLUSTERS + "/tree-yarn/tenants")
                .then().statusCode(200)
                .body("path", contains("root", "root.analytics", "root.analytics.etl"))
                .body("weight", contains(1.0f, 1.0f, 3.0f));

        given().contentType(ContentType.JSON).body("{\"weight\":0}")
                .put(CLUSTERS + "/tree-yarn/tenants/root.analytics.etl")
                .then().statusCode(200).body("weight", equalTo(0)).body("discountRateOverride", equalTo(0.5f));
    }

    @Test
    void ledgerSettingsCreateMissingAncestorsAndKeepAnOverrideTheyDoNotName() {
        given().contentType(ContentType.JSON).body("{\"id\":\"settings-tree\",\"resourceManager\":\"YARN\"}")
                .post(CLUSTERS).then().statusCode(201);
        given().contentType(ContentType.JSON).body("{\"weight\":2,\"discountRateOverride\":0.25}")
                .put(CLUSTERS + "/settings-tree/tenants/root.kept").then().statusCode(200);
        given().contentType(ContentType.JSON).body("""
                {"registeredAt":"2026-01-01T00:00:00Z","capacity":{"vcores":8,"memoryMb":8192,"gpus":0},
                 "period":{"length":"PT1H"},"tenants":[{"path":"root.kept","weight":4},
                 {"path":"root.x.y","weight":3},{"path":"root.x.z","weight":5}]}""")
                .put(CLUSTERS + "/settings-tree/ledger-settings").then().statusCode(200);
        given().get(CLUSTERS + "/settings-tree/tenants")
                .then().statusCode(200)
                .body("path", contains("root", "root.kept", "root.x", "root.x.y", "root.x.z"))
                .body("weight", contains(1.0f, 4.0f, 1.0f, 3.0f, 5.0f))
                .body("discountRateOverride[1]", equalTo(0.25f));
    }

    @Test
    void mesosRolesUseSlashes() {
        given().contentType(ContentType.JSON).body("{\"id\":\"roles-mesos\",\"resourceManager\":\"MESOS\"}")
                .post(CLUSTERS).then().statusCode(201);
        given().contentType(ContentType.JSON).body("{\"weight\":2}")
                .put(CLUSTERS + "/roles-mesos/tenants/analytics/etl")
                .then().statusCode(200).body("parent", equalTo("analytics"));
        given().get(CLUSTERS + "/roles-mesos/tenants/analytics/etl").then().statusCode(200)
                .body("weight", equalTo(2.0f));
    }

    @Test
    void aSecondRegistrationOfTheSameIdIsAConflict() {
        String body = "{\"id\":\"twice\",\"resourceManager\":\"MESOS\"}";
        given().contentType(ContentType.JSON).body(body).post(CLUSTERS).then().statusCode(201);
        given().contentType(ContentType.JSON).body(body).post(CLUSTERS)
                .then().statusCode(409).contentType("application/problem+json")
                .body("title", equalTo("Conflict"))
                .body("detail", equalTo("cluster 'twice' is already registered"));
    }

    @Test
    void invalidInputIsAProblemThatNamesTheField() {
        given().contentType(ContentType.JSON)
                .body("{\"id\":\"Bad Id!\",\"resourceManager\":\"YARN\",\"discountRate\":2}")
                .post(CLUSTERS)
                .then().statusCode(422).contentType("application/problem+json")
                .body("status", equalTo(422))
                .body("errors.field", contains("body.discountRate", "body.id"))
                .body("errors.message", hasItem("discountRate must be between 0 and 1"));
    }

    @Test
    void malformedJsonIsABadRequestWithoutInternals() {
        given().contentType(ContentType.JSON).body("{\"id\":").post(CLUSTERS)
                .then().statusCode(400).contentType("application/problem+json")
                .body("detail", equalTo("The request could not be read: check its JSON syntax and field types."));
    }

    @Test
    void unknownClusterIsNotFound() {
        given().get(CLUSTERS + "/nowhere").then().statusCode(404).contentType("application/problem+json")
                .body("detail", equalTo("no cluster 'nowhere' is registered"));
    }

    @Test
    void invalidTenantPathIsUnprocessable() {
        given().contentType(ContentType.JSON).body("{\"id\":\"paths\",\"resourceManager\":\"YARN\"}").post(CLUSTERS)
                .then().statusCode(201);
        given().contentType(ContentType.JSON).body("{\"weight\":1}").put(CLUSTERS + "/paths/tenants/analytics")
                .then().statusCode(422).body("detail", containsString("must start with 'root'"));
        given().contentType(ContentType.JSON).body("{\"weight\":1}").put(CLUSTERS + "/paths/tenants/root..x")
                .then().statusCode(422).body("detail", containsString("invalid segment ''"));
    }
}
