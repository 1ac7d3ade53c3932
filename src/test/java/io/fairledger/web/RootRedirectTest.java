package io.fairledger.web;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;

/** {@code GET /}: a browser is sent to the portal, any other client to the OpenAPI document, and both are there. */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class RootRedirectTest {

    /** What Firefox sends when a page is opened. */
    private static final String BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

    @Test
    void aBrowserIsSentToThePortal() {
        String location = redirect(BROWSER);
        assertThat(location).isEqualTo("/portal");
        given().get(location).then().statusCode(200).contentType(ContentType.HTML);
    }

    @Test
    void anApiClientIsSentToTheOpenApiDocument() {
        for (String accept : new String[]{"application/json", "*/*", "text/html;q=0, application/json"}) {
            String location = redirect(accept);
            assertThat(location).as(accept).isEqualTo("/q/openapi");
            assertThat(given().accept("application/json").get(location + "?format=json").then().statusCode(200)
                    .extract().jsonPath().getString("openapi")).startsWith("3.");
        }
    }

    private static String redirect(String accept) {
        Response answer = given().redirects().follow(false).accept(accept).get("/");
        assertThat(answer.statusCode()).as(accept).isEqualTo(303);
        assertThat(answer.header("Vary")).isEqualToIgnoringCase("Accept");
        return path(answer);
    }

    private static String path(Response answer) {
        return URI.create(answer.header("Location")).getPath();
    }
}
