package io.fairledger.web;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import io.fairledger.live.LiveViewsModel;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;

/** The served OpenAPI document: every operation has a summary, its responses and its security requirement. */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class OpenApiDocumentTest {

    @Test
    void everyOperationHasASummaryItsResponsesAndItsSecurityRequirement() throws Exception {
        JsonNode doc = new ObjectMapper().readTree(given().accept("application/json").get("/q/openapi?format=json")
                .then().statusCode(200).extract().asString());
        List<String> problems = new ArrayList<>();
        int operations = 0;
        JsonNode paths = doc.get("paths");
        for (var path = paths.fieldNames(); path.hasNext();) {
            String p = path.next();
            for (var method = paths.get(p).fields(); method.hasNext();) {
                var entry = method.next();
                String op = entry.getKey().toUpperCase() + " " + p;
                JsonNode o = entry.getValue();
                operations++;
                if (!o.hasNonNull("summary") || o.get("summary").asText().isBlank()) {
                    problems.add(op + ": no summary");
                }
                JsonNode responses = o.path("responses");
                boolean success = false;
                for (var code = responses.fieldNames(); code.hasNext();) {
                    success |= code.next().startsWith("2");
                }
                if (!success) {
                    problems.add(op + ": no success response documented");
                }
                if (!responses.has("401") || !responses.has("403")) {
                    problems.add(op + ": 401 and 403 not documented");
                }
                if (!o.has("security") || o.get("security").isEmpty()) {
                    problems.add(op + ": no security requirement");
                }
            }
        }
        assertThat(operations).as("operations documented").isGreaterThanOrEqualTo(15);
        assertThat(problems).isEmpty();
        assertThat(doc.path("components").path("securitySchemes").size()).as("a security scheme").isPositive();
    }

    /** The grants route is documented by hand (META-INF/openapi.yaml): its schemas must name the records' fields. */
    @Test
    void theHandWrittenGrantsSchemasMirrorTheRecords() throws Exception {
        JsonNode schemas = new ObjectMapper().readTree(given().accept("application/json")
                .get("/q/openapi?format=json").then().statusCode(200).extract().asString())
                .path("components").path("schemas");
        for (Class<?> record : List.of(LiveViewsModel.GrantsView.class, LiveViewsModel.Level.class,
                LiveViewsModel.Grant.class)) {
            List<String> documented = new ArrayList<>();
            schemas.path(record.getSimpleName()).path("properties").fieldNames().forEachRemaining(documented::add);
            assertThat(documented).as(record.getSimpleName())
                    .containsExactlyInAnyOrderElementsOf(Arrays.stream(record.getRecordComponents())
                            .map(RecordComponent::getName).toList());
        }
    }
}
