package io.fairledger.ingest;

import static io.fairledger.ingest.ArrivalOrderTest.SETTINGS;
import static io.fairledger.ingest.ArrivalOrderTest.demand;
import static io.fairledger.ingest.ArrivalOrderTest.yarn;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.inject.Inject;

import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.utils.Utils;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.fairledger.ingest.schema.EventTopics;
import io.fairledger.testsupport.EventPublisher;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;

/**
 * The gauges the silence alerts watch, on the real server (docs/metrics.md): a cluster's events from two sources (the
 * YARN container topic's partition and the demand topic's) give each source its newest event time and the time it was
 * stored; an answered grants request sets the cluster's last fetch; PostgreSQL's check reports 1, and without a schema
 * registry there is no registry gauge. With the default settings no span is exported.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class SilenceMetricsTest {

    private static final Pattern SAMPLE = Pattern.compile("^(fairledger_[a-z_]+)\\{([^}]*)} (\\S+)$",
            Pattern.MULTILINE);

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    /** {@link BatchTracesTest}'s exporter, which the SDK would find if it were on. */
    @Inject
    InMemorySpanExporter spans;

    @Test
    void eachSourceOfAClusterHasItsNewestEventTimeAndWhenItsEventsWereStored() {
        String cluster = "silence-sources";
        register(cluster);
        double before = System.currentTimeMillis() / 1000.0;
        EventPublisher.publish(bootstrap, EventTopics.YARN_CONTAINERS, cluster,
                List.of(of(cluster, yarn("c1-running", "00:00:05", "RUNNING", null)), of(cluster, yarn("c1-complete",
                        "01:00:00", "COMPLETE", "\"finishedTime\":\"2026-11-20T01:00:00Z\""))));
        EventPublisher.publish(bootstrap, EventTopics.DEMAND, cluster,
                List.of(of(cluster, demand("x1-0030", "00:30:00", "x1", 2)),
                        of(cluster, demand("x1-0010", "00:10:00", "x1", 1))));
        String containers = source(EventTopics.YARN_CONTAINERS, cluster);
        String demands = source(EventTopics.DEMAND, cluster);

        Map<String, Double> samples = new HashMap<>();
        Awaitility.await().atMost(60, TimeUnit.SECONDS).pollInterval(500, TimeUnit.MILLISECONDS).untilAsserted(() -> {
            samples.clear();
            samples.putAll(samples(cluster));
            assertThat(samples).hasSize(4)
                    .containsEntry("fairledger_source_last_event_time_seconds " + containers,
                            (double) Instant.parse("2026-11-20T01:00:00Z").getEpochSecond())
                    .as("the newest event time, not the last one published")
                    .containsEntry("fairledger_source_last_event_time_seconds " + demands,
                            (double) Instant.parse("2026-11-20T00:30:00Z").getEpochSecond());
        });
        double after = System.currentTimeMillis() / 1000.0;

        for (String source : List.of(containers, demands)) {
            assertThat(samples.get("fairledger_source_last_received_time_seconds " + source))
                    .as("stored while the test ran: " + source).isBetween(before, after);
        }
    }

    @Test
    void anAnsweredGrantsRequestSetsTheClustersLastFetchAndTheDatabaseIsUp() {
        String cluster = "silence-grants";
        register(cluster);
        given().get("/api/v1/clusters/nobody-registered/grants").then().statusCode(404);
        double before = System.currentTimeMillis() / 1000.0;
        Awaitility.await().atMost(60, TimeUnit.SECONDS).pollInterval(500, TimeUnit.MILLISECONDS)
                .untilAsserted(() -> given().get("/api/v1/clusters/" + cluster + "/grants").then().statusCode(200));
        double after = System.currentTimeMillis() / 1000.0;

        String text = given().get(metrics.toString()).then().statusCode(200).extract().asString();
        assertThat(value(text, "fairledger_grants_last_fetch_time_seconds{cluster=\"" + cluster + "\"}"))
                .isBetween(before, after);
        assertThat(text).as("a cluster that was never answered has no gauge")
                .doesNotContain("cluster=\"nobody-registered\"");
        assertThat(value(text, "fairledger_database_up")).isEqualTo(1.0);
        assertThat(text).as("no schema registry is configured").doesNotContain("fairledger_schema_registry_up");
        assertThat(spans.getFinishedSpanItems()).as("traces are off by default: nothing exported").isEmpty();
    }

    /** The per-source samples of {@code cluster}, keyed by metric name and source. */
    private Map<String, Double> samples(String cluster) {
        String text = given().get(metrics.toString()).then().statusCode(200).extract().asString();
        Map<String, Double> out = new HashMap<>();
        Matcher m = SAMPLE.matcher(text);
        while (m.find()) {
            Map<String, String> labels = labels(m.group(2));
            if (m.group(1).startsWith("fairledger_source_") && cluster.equals(labels.get("cluster"))) {
                assertThat(labels.keySet()).as("labels of " + m.group()).containsExactlyInAnyOrder("cluster",
                        "source");
                out.put(m.group(1) + " " + labels.get("source"), Double.parseDouble(m.group(3)));
            }
        }
        return out;
    }

    /** The value of the sample written exactly {@code series} (name and labels). */
    private static double value(String text, String series) {
        return text.lines().filter(l -> l.startsWith(series + " ")).map(l -> l.substring(series.length() + 1))
                .mapToDouble(Double::parseDouble).findFirst()
                .orElseThrow(() -> new AssertionError(series + " is not in the metrics"));
    }

    private static Map<String, String> labels(String text) {
        Map<String, String> labels = new HashMap<>();
        Matcher m = Pattern.compile("(\\w+)=\"([^\"]*)\"").matcher(text);
        while (m.find()) {
            labels.put(m.group(1), m.group(2));
        }
        return labels;
    }

    /** The partition of {@code topic} the cluster's events go to (Kafka's default partitioner over the key). */
    private String source(String topic, String cluster) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            int partitions = consumer.partitionsFor(topic).size();
            return topic + "-"
                    + Utils.toPositive(Utils.murmur2(cluster.getBytes(StandardCharsets.UTF_8))) % partitions;
        }
    }

    private static void register(String cluster) {
        given().contentType(ContentType.JSON).body("{\"id\":\"" + cluster + "\",\"resourceManager\":\"YARN\"}")
                .post("/api/v1/admin/clusters").then().statusCode(201);
        given().contentType(ContentType.JSON).body(SETTINGS)
                .put("/api/v1/admin/clusters/" + cluster + "/ledger-settings").then().statusCode(200);
    }

    private static String of(String cluster, String line) {
        return line.replace("\"cluster\":\"c\"", "\"cluster\":\"" + cluster + "\"");
    }
}
