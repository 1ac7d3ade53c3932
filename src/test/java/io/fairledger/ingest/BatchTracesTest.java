package io.fairledger.ingest;

import static io.fairledger.ingest.ArrivalOrderTest.SETTINGS;
import static io.fairledger.ingest.ArrivalOrderTest.yarn;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.fairledger.ingest.schema.EventTopics;
import io.fairledger.testsupport.EventPublisher;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;

/**
 * Traces and JSON logs on the real server, as an operator turns them on (docs/deployment.md, "Logs" and "Traces"):
 * with the SDK enabled, spans go to an in-memory exporter instead of an OTLP endpoint. An ingested batch has its span
 * with the clusters, records and stored facts, an HTTP request its server span; and a JSON log line parses.
 */
@QuarkusTest
@TestProfile(BatchTracesTest.Traced.class)
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class BatchTracesTest {

    private static final Path JSON_LOG = Path.of("target/batch-traces-test.log");

    /** Traces on, exported every 50 ms; logs also written as JSON to {@link #JSON_LOG}. */
    public static class Traced implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.otel.sdk.disabled", "false", "quarkus.otel.exporter.otlp.enabled", "false",
                    "quarkus.otel.bsp.schedule.delay", "50ms", "quarkus.log.file.enabled", "true",
                    "quarkus.log.file.path", JSON_LOG.toString(), "quarkus.log.file.json.enabled", "true");
        }
    }

    /** The exporter the SDK finds among the beans (Quarkus' {@code quarkus.otel.traces.exporter=cdi}). */
    static class Exporter {
        @Produces
        @Singleton
        InMemorySpanExporter spans() {
            return InMemorySpanExporter.create();
        }
    }

    @Inject
    InMemorySpanExporter spans;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void anIngestedBatchHasASpanWithItsClusterRecordsAndStoredFacts() {
        String cluster = "traced";
        given().contentType(ContentType.JSON).body("{\"id\":\"" + cluster + "\",\"resourceManager\":\"YARN\"}")
                .post("/api/v1/admin/clusters").then().statusCode(201);
        given().contentType(ContentType.JSON).body(SETTINGS)
                .put("/api/v1/admin/clusters/" + cluster + "/ledger-settings").then().statusCode(200);
        EventPublisher.publish(bootstrap, EventTopics.YARN_CONTAINERS, cluster,
                List.of(of(cluster, yarn("t1-running", "00:00:05", "RUNNING", null)), of(cluster, yarn("t1-complete",
                        "01:00:00", "COMPLETE", "\"finishedTime\":\"2026-11-20T01:00:00Z\""))));

        Awaitility.await().atMost(60, TimeUnit.SECONDS).pollInterval(200, TimeUnit.MILLISECONDS).untilAsserted(() -> {
            List<SpanData> batches = spans.getFinishedSpanItems().stream()
                    .filter(s -> s.getName().equals(BatchTraces.NAME)
                            && List.of(cluster).equals(s.getAttributes().get(BatchTraces.CLUSTERS)))
                    .toList();
            assertThat(batches).allSatisfy(s -> {
                assertThat(s.getKind()).isEqualTo(SpanKind.CONSUMER);
                assertThat(s.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
                assertThat(s.getEvents()).extracting(e -> e.getName()).containsExactly("decoded", "handed over");
            });
            assertThat(batches.stream().mapToLong(s -> s.getAttributes().get(BatchTraces.RECORDS)).sum())
                    .as("records").isEqualTo(2);
            assertThat(batches.stream().mapToLong(s -> s.getAttributes().get(BatchTraces.STORED_FACTS)).sum())
                    .as("stored facts: the start and the finish").isEqualTo(2);
        });
    }

    @Test
    void anHttpRequestHasAServerSpan() {
        given().get("/api/v1/admin/clusters").then().statusCode(200);
        Awaitility.await().atMost(30, TimeUnit.SECONDS).pollInterval(200, TimeUnit.MILLISECONDS)
                .untilAsserted(() -> assertThat(spans.getFinishedSpanItems())
                        .anySatisfy(s -> {
                            assertThat(s.getKind()).isEqualTo(SpanKind.SERVER);
                            assertThat(s.getName()).isEqualTo("GET /api/v1/admin/clusters");
                        }));
    }

    @Test
    void everyLogLineIsAJsonObjectWithLevelLoggerAndMessage() throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<String> lines = Files.readAllLines(JSON_LOG);
        assertThat(lines).isNotEmpty();
        for (String line : lines) {
            JsonNode entry = json.readTree(line);
            assertThat(entry.isObject()).as(line).isTrue();
            assertThat(entry.path("level").asText()).as(line).isNotEmpty();
            assertThat(entry.path("loggerName").asText()).as(line).isNotEmpty();
            assertThat(entry.has("message")).as(line).isTrue();
        }
    }

    private static String of(String cluster, String line) {
        return line.replace("\"cluster\":\"c\"", "\"cluster\":\"" + cluster + "\"");
    }
}
