package io.fairledger.ingest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.fairledger.ingest.schema.Decoded;
import io.fairledger.ingest.schema.EventDecoder;
import io.fairledger.ingest.schema.EventEncoder;
import io.fairledger.ingest.schema.EventTopics;
import io.fairledger.ingest.schema.EventType;
import io.fairledger.ingest.schema.FairledgerEvent;
import io.fairledger.ingest.schema.RegistryFrame;
import io.fairledger.testsupport.ApicurioRegistryDependency;
import io.fairledger.testsupport.ApicurioSerializer;
import io.fairledger.testsupport.EventPublisher;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;
import io.fairledger.testsupport.RealDependency;
import io.fairledger.testsupport.SwitchableProxy;
import io.fairledger.testsupport.TestClusters;

/**
 * Records written by Apicurio Registry's own Avro serializer, against a real Apicurio Registry and through the real
 * Kafka broker of the suite: YARN events framed both ways the serializer frames them (the global id in a header, its
 * default; a 4-byte content id after the magic byte, Confluent's wire format), and in a newer compatible schema version,
 * give the statements the same events give as plain JSON; a job submitted so reaches admission; an unknown schema id and
 * an incompatible version are dead letters with their reasons; and while the registry is away the consumer waits,
 * losing nothing, and goes on when it is back. The server reaches the registry through a {@link SwitchableProxy}.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = SchemaRegistryIngestionTest.RegistryBehindASwitch.class, scope = TestResourceScope.RESTRICTED_TO_CLASS)
class SchemaRegistryIngestionTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Schema CURRENT = EventType.YARN_CONTAINER.schema();
    private static final String UNTIL = "2026-11-20T02:00:00Z";

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    /** The registry's root URL, for the test's own serializer (the server's goes through the switch). */
    String registryRoot;
    /** The server's way to the registry: false cuts it off. */
    AtomicBoolean registryReachable;
    /** Connections the switch closed while the registry was cut off. */
    AtomicInteger registryRefused;

    private final EventEncoder encoder = new EventEncoder();

    @Test
    void registryFramedEventsAreStoredLikePlainOnesAndBadIdsAreDeadLetters() throws Exception {
        String plain = "registry-plain";
        String framed = "registry-framed";
        TestClusters.registerHourlyUsage(plain);
        TestClusters.registerHourlyUsage(framed);
        List<String> plainLines = containers(plain);
        EventPublisher.publishYarn(bootstrap, plain, plainLines);

        List<String> framedLines = containers(framed);
        try (KafkaProducer<String, byte[]> producer = producer()) {
            // Apicurio 2's default: the global id in a header, the bare Avro body as the value
            Sent c1 = send(producer, framed, serializer(Map.of()), record(framedLines.get(0)));
            assertThat(c1.headers().lastHeader(RegistryFrame.GLOBAL_ID_HEADER)).isNotNull();
            assertThat(c1.value()[0]).as("no magic byte with headers").isNotEqualTo((byte) 0);
            // Confluent's wire format: magic byte 0, the 4-byte content id, the body
            Sent c2 = send(producer, framed, serializer(Map.of(ApicurioSerializer.HEADERS_ENABLED, "false",
                    ApicurioSerializer.ID_HANDLER, ApicurioSerializer.FOUR_BYTE_IDS, ApicurioSerializer.USE_ID,
                    "contentId")), record(framedLines.get(1)));
            assertThat(c2.headers().toArray()).isEmpty();
            assertThat(c2.value()[0]).isZero();
            assertThat((long) ByteBuffer.wrap(c2.value(), 1, 4).getInt()).as("the content id the registry gave")
                    .isEqualTo(latest("fairledger.yarn.containers-value").get("contentId").asLong());
            // a newer version of the schema, registered by the serializer, that the current one reads
            send(producer, framed, serializer(Map.of()), withField(record(framedLines.get(2)), "site", "eu-1"));
            send(producer, framed, serializer(Map.of()), record(framedLines.get(3)));
        }
        Awaitility.await().atMost(90, TimeUnit.SECONDS).pollInterval(1, TimeUnit.SECONDS)
                .untilAsserted(() -> {
                    // both clusters' whole period 0, not a moment at which both are equally incomplete
                    assertThat(lines(plain)).isNotEmpty().first().satisfies(
                            line -> assertThat(line.get("charge").decimalValue()).isEqualByComparingTo("1.5"));
                    assertThat(lines(framed)).isEqualTo(lines(plain));
                });

        String unknownId = containers(framed).get(0).replace("\"c1\"", "\"unknown-id\"");
        String incompatible = containers(framed).get(0).replace("\"c1\"", "\"incompatible\"");
        try (KafkaProducer<String, byte[]> producer = producer()) {
            byte[] body = body(record(unknownId));
            producer.send(new ProducerRecord<>(EventTopics.YARN_CONTAINERS, framed,
                    ByteBuffer.allocate(5 + body.length).put((byte) 0).putInt(987_654).put(body).array())).get();
            send(producer, framed, serializer(Map.of()), vcoresAsText(record(incompatible)));
            String job = "{\"type\":\"JobSubmitted\",\"eventId\":\"registry-job-1\",\"cluster\":\"" + framed
                    + "\",\"eventTime\":\"" + Instant.now().minusSeconds(1) + "\",\"jobId\":\"rjob\","
                    + "\"tenant\":\"root.a\",\"requestedTasks\":2,\"relativeDeadlineSeconds\":600}";
            send(producer, EventTopics.JOBS, framed, serializer(Map.of()), record(job));
        }
        List<String> reasons = new ArrayList<>();
        try (KafkaConsumer<String, String> letters = deadLetterReader()) {
            Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(() -> {
                letters.poll(Duration.ofMillis(500)).forEach(r -> {
                    if (framed.equals(r.key())) {
                        reasons.add(new String(r.headers().lastHeader(EventTopics.REASON_HEADER).value(),
                                StandardCharsets.UTF_8));
                    }
                });
                assertThat(reasons).hasSize(2);
            });
        }
        assertThat(reasons.get(0)).startsWith("unknown-schema-id: content id 987654 is not in the schema registry (")
                .contains("/ids/contentIds/987654 answered 404: ");
        assertThat(reasons.get(1)).startsWith("schema-mismatch: global id ").contains(
                "is a version of YarnContainerEvent that the current schema cannot read: ")
                .contains("at field allocatedVcores");
        Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(() -> given()
                .get("/api/v1/clusters/" + framed + "/jobs/rjob").then().statusCode(200).body("cpus", equalTo(2)));
        assertThat(lines(framed)).as("the books did not move").isEqualTo(lines(plain));
    }

    @Test
    void whileTheRegistryIsAwayTheConsumerWaitsAndLosesNothing() throws Exception {
        String cluster = "registry-away";
        TestClusters.registerHourlyUsage(cluster);
        List<String> lines = containers(cluster);
        registryReachable.set(false);
        try (KafkaProducer<String, byte[]> producer = producer()) {
            // a version not seen before, so its id is in no cache
            for (String line : lines) {
                send(producer, cluster, serializer(Map.of()), withField(record(line), "rack", "r7"));
            }
            int before = registryRefused.get();
            // one lookup (3 attempts) closes 3 to 6 connections: 10 means the batch was read again at least once
            Awaitility.await().atMost(120, TimeUnit.SECONDS)
                    .untilAsserted(() -> assertThat(registryRefused.get()).isGreaterThanOrEqualTo(before + 10));
            assertThat(lines(cluster)).as("nothing stored while the registry is away")
                    .allSatisfy(line -> assertThat(line.get("vcoreSeconds").asDouble()).isZero());
        } finally {
            registryReachable.set(true);
        }
        Awaitility.await().atMost(90, TimeUnit.SECONDS).pollInterval(1, TimeUnit.SECONDS)
                .untilAsserted(() -> assertThat(lines(cluster)).singleElement().satisfies(
                        line -> assertThat(line.get("charge").decimalValue()).isEqualByComparingTo("1.5")));
        try (KafkaConsumer<String, String> letters = deadLetterReader()) {
            List<String> ours = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                letters.poll(Duration.ofMillis(500)).forEach(r -> {
                    if (cluster.equals(r.key())) {
                        ours.add(r.value());
                    }
                });
            }
            assertThat(ours).as("no dead letter while the registry was away").isEmpty();
        }
    }

    /**
     * Three containers of one vcore for 30 minutes each in period 0 (a charge of 1.5), and one at 03:00 that closes
     * periods 0 and 1.
     */
    private static List<String> containers(String cluster) {
        return List.of(container(cluster, "c1", "00:00:00", "00:30:00"),
                container(cluster, "c2", "00:10:00", "00:40:00"), container(cluster, "c3", "00:20:00", "00:50:00"),
                container(cluster, "c9", "03:00:00", "03:00:01"));
    }

    private static String container(String cluster, String id, String from, String to) {
        return ("{\"type\":\"YarnContainerEvent\",\"eventId\":\"%s\",\"cluster\":\"%s\",\"eventTime\":"
                + "\"2026-11-20T%sZ\",\"applicationId\":\"application_1_0001\",\"attemptId\":\"appattempt_1_0001_01\","
                + "\"containerId\":\"%s\",\"queue\":\"root.a\",\"user\":\"u\",\"allocatedMemoryMb\":0,"
                + "\"allocatedVcores\":1,\"node\":\"n1\",\"state\":\"COMPLETE\",\"createdTime\":\"2026-11-20T%sZ\","
                + "\"finishedTime\":\"2026-11-20T%sZ\"}").formatted(id, cluster, to, id, from, to);
    }

    /** The statement lines of period 0 as the API answers them, or an empty list while there is none. */
    private static List<JsonNode> lines(String cluster) throws IOException {
        String body = given().accept(ContentType.JSON).queryParam("until", UNTIL)
                .get("/api/v1/admin/clusters/" + cluster + "/statements").then().statusCode(200).extract().asString();
        JsonNode statements = JSON.readTree(body);
        List<JsonNode> lines = new ArrayList<>();
        if (statements.size() > 0) {
            statements.get(0).get("lines").forEach(lines::add);
        }
        return lines;
    }

    /** The Avro record (current schema) a plain JSON event stands for. */
    private GenericRecord record(String json) throws IOException {
        Decoded decoded = new EventDecoder(Clock.systemUTC())
                .decodeJson(json.getBytes(StandardCharsets.UTF_8));
        assertThat(decoded.isOk()).as(decoded.toString()).isTrue();
        FairledgerEvent event = ((Decoded.Ok) decoded).event();
        EventType type = EventEncoder.typeOf(event);
        return new BinaryMessageDecoder<GenericRecord>(GenericData.get(), type.schema())
                .decode(encoder.toAvro(event));
    }

    /** {@code record} in a version of its schema with one more optional string field, set to {@code value}. */
    private static GenericRecord withField(GenericRecord record, String field, String value) {
        Schema schema = record.getSchema();
        Schema newer = new Schema.Parser().parse(schema.toString().replace("\"fields\":[", "\"fields\":[{\"name\":\""
                + field + "\",\"type\":[\"null\",\"string\"],\"default\":null,\"doc\":\"added later\"},"));
        GenericRecord copy = new GenericData.Record(newer);
        schema.getFields().forEach(f -> copy.put(f.name(), record.get(f.name())));
        copy.put(field, value);
        return copy;
    }

    /** {@code record} in a version of its schema that has {@code allocatedVcores} as a string: incompatible. */
    private static GenericRecord vcoresAsText(GenericRecord record) {
        Schema text = new Schema.Parser().parse(CURRENT.toString().replace(
                "{\"name\":\"allocatedVcores\",\"type\":\"int\"", "{\"name\":\"allocatedVcores\",\"type\":\"string\""));
        GenericRecord copy = new GenericData.Record(text);
        CURRENT.getFields().forEach(f -> copy.put(f.name(), record.get(f.name())));
        copy.put("allocatedVcores", String.valueOf(record.get("allocatedVcores")));
        return copy;
    }

    private static byte[] body(GenericRecord record) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder avro = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(record.getSchema()).write(record, avro);
        avro.flush();
        return out.toByteArray();
    }

    /** Apicurio's serializer against the registry, registering the schemas it meets. */
    private Serializer<Object> serializer(Map<String, String> settings) {
        return ApicurioSerializer.create(registryRoot + ApicurioRegistryDependency.API, settings);
    }

    private record Sent(Headers headers, byte[] value) {
    }

    private static Sent send(KafkaProducer<String, byte[]> producer, String cluster,
            Serializer<Object> serializer, GenericRecord record) throws Exception {
        return send(producer, EventTopics.YARN_CONTAINERS, cluster, serializer, record);
    }

    private static Sent send(KafkaProducer<String, byte[]> producer, String topic, String cluster,
            Serializer<Object> serializer, GenericRecord record) throws Exception {
        Headers headers = new RecordHeaders();
        byte[] value = serializer.serialize(topic, headers, record);
        producer.send(new ProducerRecord<>(topic, null, cluster, value, headers)).get();
        serializer.close();
        return new Sent(headers, value);
    }

    private KafkaProducer<String, byte[]> producer() {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new StringSerializer(),
                new ByteArraySerializer());
    }

    private KafkaConsumer<String, String> deadLetterReader() {
        KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap, ConsumerConfig.GROUP_ID_CONFIG, "registry-letters-" + System.nanoTime(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(),
                new StringDeserializer());
        consumer.subscribe(List.of(EventTopics.DEAD_LETTERS));
        return consumer;
    }

    /** The registry's metadata of the latest version of an artifact. */
    private JsonNode latest(String artifact) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                registryRoot + ApicurioRegistryDependency.API + "/groups/default/artifacts/" + artifact + "/meta"))
                .build(), HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(response.body());
    }

    /** A real Apicurio Registry, which the server reaches through a {@link SwitchableProxy} the test can cut off. */
    public static final class RegistryBehindASwitch implements QuarkusTestResourceLifecycleManager {

        private RealDependency.Running registry;
        private SwitchableProxy proxy;
        private String root;

        @Override
        public Map<String, String> start() {
            registry = ApicurioRegistryDependency.start();
            root = ApicurioRegistryDependency.rootUrl(registry.config());
            URI uri = URI.create(root);
            try {
                proxy = new SwitchableProxy(uri.getHost(), uri.getPort());
            } catch (IOException e) {
                throw new IllegalStateException("cannot start the proxy to the registry", e);
            }
            return Map.of("fairledger.ingest.registry.url",
                    "http://127.0.0.1:" + proxy.port() + ApicurioRegistryDependency.API,
                    "fairledger.ingest.registry.timeout", "2s");
        }

        @Override
        public void inject(TestInjector testInjector) {
            testInjector.injectIntoFields(root, field -> field.getName().equals("registryRoot"));
            testInjector.injectIntoFields(proxy.reachable(), field -> field.getName().equals("registryReachable"));
            testInjector.injectIntoFields(proxy.refused(), field -> field.getName().equals("registryRefused"));
        }

        @Override
        public void stop() {
            if (proxy != null) {
                proxy.close();
            }
            if (registry != null) {
                registry.close();
            }
        }
    }
}
