package io.fairledger.ingest.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.fairledger.ingest.schema.EventType;
import io.fairledger.ingest.schema.RegistryFrame.IdKind;
import io.fairledger.ingest.schema.RegistryUnavailableException;
import io.fairledger.ingest.schema.SchemaRegistry.Answer;
import io.fairledger.testsupport.ApicurioRegistryDependency;
import io.fairledger.testsupport.ApicurioSerializer;
import io.fairledger.testsupport.Processes;
import io.fairledger.testsupport.RealDependency;

/**
 * The registry client against a real Apicurio Registry ({@link ApicurioRegistryDependency}), through its own API and
 * its Confluent-compatible one; and, for what a healthy registry never does (refuse credentials, fail with 503), against
 * a loopback HTTP server that answers so.
 */
class RegistryClientTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String ARTIFACT = "registry-client-test-value";

    private static RealDependency.Running registry;
    private static String root;
    private static String schemaText;
    private static long globalId;
    private static long contentId;

    @BeforeAll
    static void registerASchema() throws Exception {
        registry = ApicurioRegistryDependency.start();
        root = ApicurioRegistryDependency.rootUrl(registry.config());
        schemaText = Files.readString(Path.of("kafka-schemas/YarnContainerEvent.avsc"));
        HttpResponse<String> created = HTTP.send(HttpRequest.newBuilder(
                URI.create(root + ApicurioRegistryDependency.API + "/groups/default/artifacts"))
                .header("Content-Type", "application/json").header("X-Registry-ArtifactId", ARTIFACT)
                .header("X-Registry-ArtifactType", "AVRO").POST(HttpRequest.BodyPublishers.ofString(schemaText))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        JsonNode metadata = JSON.readTree(created.body());
        globalId = metadata.get("globalId").asLong();
        contentId = metadata.get("contentId").asLong();
    }

    @AfterAll
    static void stop() {
        if (registry != null) {
            registry.close();
        }
    }

    @Test
    void apicuriosOwnApiAnswersBothIds() {
        RegistryClient client = client(root + ApicurioRegistryDependency.API);
        assertThat(client.lookup(IdKind.GLOBAL_ID, globalId)).isEqualTo(Answer.found(schemaText));
        assertThat(client.lookup(IdKind.CONTENT_ID, contentId)).isEqualTo(Answer.found(schemaText));
        assertThat(client(root + ApicurioRegistryDependency.API + "/").lookup(IdKind.GLOBAL_ID, globalId).schema())
                .as("a trailing slash").isEqualTo(schemaText);
    }

    @Test
    void theConfluentCompatibleApiAnswersContentIdsAndExplainsGlobalOnes() {
        RegistryClient client = client(root + ApicurioRegistryDependency.CONFLUENT_API);
        Answer answer = client.lookup(IdKind.CONTENT_ID, contentId);
        assertThat(new Schema.Parser().parse(answer.schema())).isEqualTo(new Schema.Parser().parse(schemaText));
        assertThat(client.lookup(IdKind.GLOBAL_ID, globalId).missing())
                .startsWith("a global id is looked up in Apicurio's own API");
    }

    @Test
    void theEnumsApicuriosSerializerRegistersApartComeWithTheRecordThroughEitherApi() throws Exception {
        GenericRecord record = new GenericData.Record(EventType.JOB_FINISHED.schema());
        RecordHeaders headers = new RecordHeaders();
        try (Serializer<Object> serializer = ApicurioSerializer.create(root + ApicurioRegistryDependency.API,
                Map.of())) {
            record.put("eventId", "e1");
            record.put("cluster", "c");
            record.put("eventTime", 1_795_000_000_000L);
            record.put("jobId", "j1");
            record.put("tenant", "root.a");
            record.put("compTimeCpuSeconds", 1.0);
            record.put("allocatedCpus", 1.0);
            record.put("outcome", new GenericData.EnumSymbol(
                    EventType.JOB_FINISHED.schema().getField("outcome").schema(), "SUCCEEDED"));
            serializer.serialize("registry-client-test", headers, record);
        }
        long global = ByteBuffer.wrap(headers.lastHeader("apicurio.value.globalId").value()).getLong();
        Answer own = client(root + ApicurioRegistryDependency.API).lookup(IdKind.GLOBAL_ID, global);
        assertThat(own.references()).as("the outcome enum, registered apart").hasSize(1);
        Schema.Parser parser = new Schema.Parser();
        parser.parse(own.references().get(0));
        assertThat(parser.parse(own.schema())).isEqualTo(EventType.JOB_FINISHED.schema());

        long content = latestContentId("registry-client-test-value");
        Answer confluent = client(root + ApicurioRegistryDependency.CONFLUENT_API).lookup(IdKind.CONTENT_ID, content);
        assertThat(confluent.references()).hasSize(1);
        Schema.Parser again = new Schema.Parser();
        again.parse(confluent.references().get(0));
        assertThat(again.parse(confluent.schema())).isEqualTo(EventType.JOB_FINISHED.schema());
    }

    @Test
    void anIdTheRegistryDoesNotHaveIsUnknownWithTheRegistrysOwnWords() {
        Answer own = client(root + ApicurioRegistryDependency.API).lookup(IdKind.GLOBAL_ID, 987_654);
        assertThat(own.schema()).isNull();
        assertThat(own.missing()).contains("/ids/globalIds/987654 answered 404: ").contains("error_code 404");
        Answer confluent = client(root + ApicurioRegistryDependency.CONFLUENT_API).lookup(IdKind.CONTENT_ID, 987_654);
        assertThat(confluent.missing()).contains("/schemas/ids/987654 answered 404: ").contains("error_code 40403");
    }

    @Test
    void aUrlThatIsNotTheRegistryApiIsNotTakenForUnknownIds() {
        RegistryClient client = client(root + "/not/the/api");
        assertThatThrownBy(() -> client.lookup(IdKind.CONTENT_ID, contentId))
                .isInstanceOf(RegistryUnavailableException.class).hasMessageContaining("answered 404")
                .hasMessageContaining(
                        "which is not a registry's \"no such id\"; is fairledger.ingest.registry.url the registry API's base URL?");
    }

    @Test
    void answersIsTrueForEitherApiOfARunningRegistryAndFalseWithNobodyListening() {
        assertThat(client(root + ApicurioRegistryDependency.API).answers()).as("Apicurio's own API").isTrue();
        assertThat(client(root + ApicurioRegistryDependency.CONFLUENT_API).answers()).as("the Confluent-compatible API")
                .isTrue();
        assertThat(client(root + "/not-the-api").answers()).as("a URL that is not the registry's API").isFalse();
        assertThat(client("http://127.0.0.1:" + Processes.freePort() + ApicurioRegistryDependency.API).answers())
                .as("nobody listening").isFalse();
    }

    @Test
    void aRegistryNobodyListensForIsUnavailableAfterTheConfiguredAttempts() {
        RegistryClient client = client("http://127.0.0.1:" + Processes.freePort() + ApicurioRegistryDependency.API);
        assertThatThrownBy(() -> client.lookup(IdKind.GLOBAL_ID, 1)).isInstanceOf(RegistryUnavailableException.class)
                .hasMessageContaining("did not answer GET http://127.0.0.1:")
                .hasMessageContaining("after 3 attempt(s): ConnectException");
    }

    @Test
    void errorsAreTriedAgainAndRefusedCredentialsNameTheSettings() throws Exception {
        List<String> requests = new CopyOnWriteArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            requests.add(exchange.getRequestURI().getPath() + " "
                    + exchange.getRequestHeaders().getFirst("Authorization"));
            boolean unavailable = exchange.getRequestURI().getPath().endsWith("/1");
            byte[] body = (unavailable
                    ? "{\"error_code\":50301,\"message\":\"starting\"}"
                    : "{\"error_code\":40101,\"message\":\"Unauthorized\"}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(unavailable ? 503 : 401, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort();
            RegistryClient basic = new RegistryClient(new RegistryClient.Settings(URI.create(url),
                    RegistryClient.Settings.authorization("ingest", "s3cret", null), Duration.ofSeconds(5), 3,
                    Duration.ofMillis(1)));
            assertThatThrownBy(() -> basic.lookup(IdKind.CONTENT_ID, 1))
                    .isInstanceOf(RegistryUnavailableException.class)
                    .hasMessageContaining("after 3 attempt(s): answered 503: starting");
            assertThatThrownBy(() -> basic.lookup(IdKind.CONTENT_ID, 2))
                    .isInstanceOf(RegistryUnavailableException.class)
                    .hasMessageContaining("answered 401: Unauthorized; check"
                            + " fairledger.ingest.registry.username and password, or token");
            RegistryClient bearer = new RegistryClient(new RegistryClient.Settings(URI.create(url),
                    RegistryClient.Settings.authorization("ignored", "ignored", "t0ken"), Duration.ofSeconds(5), 1,
                    Duration.ofMillis(1)));
            assertThatThrownBy(() -> bearer.lookup(IdKind.CONTENT_ID, 3))
                    .isInstanceOf(RegistryUnavailableException.class);
            String basicAuth = "Basic aW5nZXN0OnMzY3JldA==";
            assertThat(requests).containsExactly("/schemas/ids/1 " + basicAuth, "/schemas/ids/1 " + basicAuth,
                    "/schemas/ids/1 " + basicAuth, "/schemas/ids/2 " + basicAuth, "/schemas/ids/3 Bearer t0ken");
        } finally {
            server.stop(0);
        }
    }

    private static long latestContentId(String artifact) throws Exception {
        HttpResponse<String> meta = HTTP.send(HttpRequest.newBuilder(URI.create(root + ApicurioRegistryDependency.API
                + "/groups/default/artifacts/" + artifact + "/meta")).build(), HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(meta.body()).get("contentId").asLong();
    }

    private static RegistryClient client(String url) {
        return new RegistryClient(
                new RegistryClient.Settings(URI.create(url), null, Duration.ofSeconds(5), 3, Duration.ofMillis(10)));
    }
}
