package io.fairledger.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.restassured.http.ContentType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.fairledger.testsupport.KafkaDependency;
import io.fairledger.testsupport.PostgresDependency;
import io.fairledger.testsupport.Processes;
import io.fairledger.testsupport.RealDependency;
import io.fairledger.testsupport.YarnWorkload;

/**
 * 100,000 events through a real Kafka into packaged servers sharing one PostgreSQL: the statements equal those of
 * {@code fairledger account} on the same file although every event is sent twice and shuffled, the first server is
 * killed with SIGKILL mid-stream, and two servers then share the consumer group. Then 100,000 mutated events: every
 * one is dead-lettered with a reason and the statements do not move.
 */
class IngestionIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant START = Instant.parse("2026-11-20T00:00:00Z");
    private static final String UNTIL = "2026-11-20T18:00:00Z";
    private static final int QUEUES = 20;
    private static final int CONTAINERS = 33_334;

    private static RealDependency.Running postgres;
    private static RealDependency.Running kafka;
    private static Path dir;

    @BeforeAll
    static void start() throws Exception {
        postgres = PostgresDependency.start();
        kafka = KafkaDependency.start();
        dir = Files.createTempDirectory("fairledger-it-ingestion");
    }

    @AfterAll
    static void stop() {
        if (kafka != null) {
            kafka.close();
        }
        if (postgres != null) {
            postgres.close();
        }
        if (dir != null) {
            Processes.deleteTree(dir);
        }
    }

    @Test
    void serversSurviveKillAndRebalanceAndMatchTheOfflineStatements() throws Exception {
        String cluster = "it-ingest";
        List<String> lines = new ArrayList<>(YarnWorkload.lines(cluster, START, CONTAINERS, QUEUES, 2026));
        // the server states the periods its facts have reached: a last container at UNTIL, delivered last, ends all 18
        String last = YarnWorkload.last(cluster, Instant.parse(UNTIL));
        lines.add(last);
        // a start and a finish per container, the last one included
        long facts = 2L * (CONTAINERS + 1);
        Path events = dir.resolve("events.jsonl");
        Path settings = dir.resolve("settings.json");
        Files.write(events, lines);
        Files.writeString(settings, YarnWorkload.settings(START, QUEUES));
        JsonNode offline = account(events, settings, dir.resolve("offline"));

        List<String> delivered = new ArrayList<>(lines);
        delivered.addAll(lines);
        Random random = new Random(11);
        for (int from = 0; from < delivered.size(); from += 1_000) {
            Collections.shuffle(delivered.subList(from, Math.min(delivered.size(), from + 1_000)), random);
        }
        delivered.removeIf(last::equals);
        delivered.add(last);
        Path feed = dir.resolve("feed.jsonl");
        Files.write(feed, delivered);

        try (ServerProcess first = ServerProcess.start(serverEnv(), "serve")) {
            register(first, cluster, settings);
            try (ServerProcess replay = ServerProcess.launch(Map.of(), "replay", "--events", feed.toString(),
                    "--bootstrap-servers", bootstrap(), "--rate", "5000")) {
                Awaitility.await().atMost(120, TimeUnit.SECONDS).until(() -> factCount() > 20_000);
                first.kill();
                System.out.println("[fairledger-it] first server killed (SIGKILL) with " + factCount()
                        + " of " + facts + " facts stored");
                try (ServerProcess second = ServerProcess.start(serverEnv(), "serve");
                        ServerProcess third = ServerProcess.start(serverEnv(), "serve")) {
                    assertThat(replay.awaitExit(Duration.ofMinutes(5))).as("replay exit code").isZero();
                    awaitStatements(second, cluster, offline);
                    awaitStatements(third, cluster, offline);
                    assertThat(factCount()).as("facts stored once each: a start and a finish per container")
                            .isEqualTo(facts);

                    List<String> mutated = mutate(lines, new Random(5));
                    publishRaw(mutated);
                    Map<String, Integer> reasons = awaitDeadLetters(mutated.size());
                    assertThat(reasons.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(mutated.size());
                    given().baseUri(second.managementUrl()).get("/q/health/ready").then().statusCode(200);
                    awaitStatements(third, cluster, offline);
                    assertThat(factCount()).as("no mutated event reached the ledger").isEqualTo(facts);
                }
            }
        }
    }

    /** Every line broken in one of the ways a resource manager or a network can break it. */
    private static List<String> mutate(List<String> lines, Random random) {
        List<String> out = new ArrayList<>(lines.size());
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).replace("\"eventId\":\"", "\"eventId\":\"mutated-");
            out.add(switch (i % 6) {
                case 0 -> line.replace("\"allocatedVcores\":", "\"allocatedVcores\":-");
                case 1 -> line.replace("\"cluster\":\"it-ingest\"", "\"cluster\":\"no-such-cluster\"");
                case 2 -> line.replaceFirst("\"eventTime\":\\d+", "\"eventTime\":4102444800000");
                case 3 -> line.replace("\"containerId\":", "\"containerIdentifier\":");
                case 4 -> line.replace("\"state\":\"", "\"state\":\"X");
                default -> {
                    // cut before the queue, so the rest is never a complete event by chance
                    int keep = line.indexOf("mutated-") + 8;
                    yield line.substring(0, keep + random.nextInt(line.indexOf("\"queue\"") - keep)) + "\"}";
                }
            });
        }
        return out;
    }

    /** Sends lines as they are, even those no router could place: the broken ones are the point. */
    private static void publishRaw(List<String> lines) {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(), ProducerConfig.LINGER_MS_CONFIG, 5),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (String line : lines) {
                producer.send(new ProducerRecord<>("fairledger.yarn.containers",
                        "it-ingest".getBytes(StandardCharsets.UTF_8), line.getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
        }
    }

    private Map<String, Integer> awaitDeadLetters(int expected) {
        Map<String, Integer> reasons = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ConsumerConfig.GROUP_ID_CONFIG, "dlq-reader-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of("fairledger.dead-letters"));
            int[] seen = {0};
            Awaitility.await().atMost(180, TimeUnit.SECONDS).until(() -> {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    if (new String(r.value(), StandardCharsets.UTF_8).contains("mutated-")) {
                        String reason = new String(r.headers().lastHeader("fairledger.dlq.reason").value(),
                                StandardCharsets.UTF_8);
                        reasons.merge(reason.substring(0, reason.indexOf(':')), 1, Integer::sum);
                        seen[0]++;
                    }
                }
                return seen[0] >= expected;
            });
        }
        System.out.println("[fairledger-it] dead letters by reason: " + reasons);
        return reasons;
    }

    private static JsonNode account(Path events, Path settings, Path out) throws Exception {
        try (ServerProcess account = ServerProcess.launch(Map.of(), "account", "--events", events.toString(),
                "--config", settings.toString(), "--out", out.toString(), "--until", UNTIL)) {
            assertThat(account.awaitExit(Duration.ofMinutes(3))).as(account.output()).isZero();
        }
        JsonNode statements = JSON.readTree(out.resolve("statements.json").toFile());
        assertThat(statements.size()).isEqualTo(18);
        return statements;
    }

    private static void register(ServerProcess server, String cluster, Path settings) throws Exception {
        given().baseUri(server.baseUrl()).contentType(ContentType.JSON)
                .body("{\"id\":\"" + cluster + "\",\"resourceManager\":\"YARN\"}").post("/api/v1/admin/clusters")
                .then().statusCode(201);
        given().baseUri(server.baseUrl()).contentType(ContentType.JSON).body(Files.readString(settings))
                .put("/api/v1/admin/clusters/" + cluster + "/ledger-settings").then().statusCode(200);
    }

    private static void awaitStatements(ServerProcess server, String cluster, JsonNode expected) {
        Awaitility.await().atMost(240, TimeUnit.SECONDS).pollInterval(2, TimeUnit.SECONDS).untilAsserted(() -> {
            String body = given().baseUri(server.baseUrl()).accept(ContentType.JSON).queryParam("until", UNTIL)
                    .get("/api/v1/admin/clusters/" + cluster + "/statements").then().statusCode(200).extract()
                    .asString();
            assertThat(ServerProcess.withoutChain(JSON.readTree(body))).isEqualTo(expected);
        });
    }

    private static long factCount() throws Exception {
        try (Connection db = ServerProcess.database(postgres);
                Statement st = db.createStatement();
                ResultSet rs = st.executeQuery("select count(*) from ledger_fact")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String bootstrap() {
        return kafka.config().get("kafka.bootstrap.servers");
    }

    private static Map<String, String> serverEnv() {
        return ServerProcess.environment(postgres, kafka);
    }
}
