package io.fairledger.accounting;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fairledger.cli.AccountCommand;
import io.fairledger.ingest.schema.EventDecoder;
import io.fairledger.ingest.schema.EventTopics;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;
import io.fairledger.testsupport.YarnWorkload;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import picocli.CommandLine;

/**
 * Events through a real Kafka into the server give the statements {@code fairledger account} computes from the same
 * file, even when every event arrives twice, out of order, and among records that must be dead-lettered.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class EventIngestionTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant START = Instant.parse("2026-11-20T00:00:00Z");

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void duplicatedShuffledEventsAmongGarbageGiveTheOfflineStatements() throws Exception {
        String cluster = "ingest-yarn";
        List<String> lines = YarnWorkload.lines(cluster, START, 2_000, 5, 42);
        String settings = YarnWorkload.settings(START, 5);
        Path dir = Files.createTempDirectory("fairledger-account");
        Files.write(dir.resolve("events.jsonl"), lines);
        Files.writeString(dir.resolve("settings.json"), settings);
        String until = "2026-11-20T02:00:00Z";
        int exit = new CommandLine(new AccountCommand()).execute("--events", dir.resolve("events.jsonl").toString(),
                "--config", dir.resolve("settings.json").toString(), "--out", dir.resolve("out").toString(),
                "--until", until);
        assertThat(exit).isZero();
        JsonNode offline = JSON.readTree(dir.resolve("out/statements.json").toFile());
        assertThat(offline.size()).as("closed hourly periods").isEqualTo(2);
        assertThat(offline.get(0).get("totalCharge").decimalValue()).as("the workload is billed").isPositive();

        given().contentType(ContentType.JSON).body("{\"id\":\"" + cluster + "\",\"resourceManager\":\"YARN\"}")
                .post("/api/v1/admin/clusters").then().statusCode(201);
        given().contentType(ContentType.JSON).body(settings)
                .put("/api/v1/admin/clusters/" + cluster + "/ledger-settings").then().statusCode(200);

        List<String> delivered = new ArrayList<>(lines);
        delivered.addAll(lines);
        shuffleWithinWindows(delivered, 500, new Random(7));
        delivered.add(100, "{\"type\":\"YarnContainerEvent\",\"eventId\":\"bad\"}");
        delivered.add(200, "\u0000\u0001 not json");
        delivered.add(300, lines.get(0).replace("\"allocatedVcores\":", "\"allocatedVcores\":-"));
        publish(cluster, delivered);

        Awaitility.await().atMost(90, TimeUnit.SECONDS).pollInterval(1, TimeUnit.SECONDS).untilAsserted(() -> {
            String body = given().accept(ContentType.JSON).queryParam("until", until)
                    .get("/api/v1/admin/clusters/" + cluster + "/statements").then().statusCode(200).extract()
                    .asString();
            assertThat(JSON.readTree(body)).isEqualTo(offline);
        });
    }

    private static void shuffleWithinWindows(List<String> lines, int window, Random random) {
        for (int from = 0; from < lines.size(); from += window) {
            Collections.shuffle(lines.subList(from, Math.min(lines.size(), from + window)), random);
        }
    }

    private void publish(String cluster, List<String> lines) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.LINGER_MS_CONFIG, 5),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (String line : lines) {
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(EventTopics.YARN_CONTAINERS,
                        cluster.getBytes(StandardCharsets.UTF_8), line.getBytes(StandardCharsets.UTF_8));
                record.headers().add(EventDecoder.CONTENT_TYPE_HEADER,
                        EventDecoder.JSON.getBytes(StandardCharsets.UTF_8));
                producer.send(record);
            }
            producer.flush();
        }
    }
}
