package io.fairledger.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.restassured.http.ContentType;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import picocli.CommandLine;

import io.fairledger.cli.AccountCommand;

/**
 * One YARN cluster of two tenants on a 10-vcore cluster with hourly periods and 30 minutes' lateness, fed by the
 * packaged server's YARN topic: the events, the server's side (registration, statements, closed periods) and
 * {@code fairledger account}'s answer on the same events, for the tests that stop, restore or replace a server and
 * compare what it serves after.
 */
final class LedgerScenario {

    static final String TOPIC = "fairledger.yarn.containers";
    static final ObjectMapper JSON = new ObjectMapper();
    static final String SETTINGS = """
            {"registeredAt":"2026-11-20T00:00:00Z","capacity":{"vcores":10,"memoryMb":10240,"gpus":0},
             "memory":{"mode":"FULL"},"period":{"length":"PT1H"},"allowedLateness":"PT30M",
             "chargeback":{"model":"USAGE","plans":[{"name":"std","perVcoreHour":"1","perGbHour":"0",
             "perGpuHour":"0"}]},"tenants":[{"path":"root.a","weight":1},{"path":"root.b","weight":2}]}""";

    final String cluster;
    private final Map<String, String> postgres;
    private final String bootstrap;

    /**
     * @param postgres the JDBC settings as {@code PostgresDependency} gives them
     * @param bootstrap the Kafka bootstrap servers
     */
    LedgerScenario(String cluster, Map<String, String> postgres, String bootstrap) {
        this.cluster = cluster;
        this.postgres = postgres;
        this.bootstrap = bootstrap;
    }

    /**
     * Completed containers of root.a (2 vcores, 50 minutes) and root.b (5 vcores, 30 minutes) every 20 minutes from
     * 00:00 to {@code hours}:00; each published at its finish, so periods close as the stream goes on.
     */
    List<String> events(int hours) {
        List<String> events = new ArrayList<>();
        for (int minute = 0; minute <= hours * 60; minute += 20) {
            events.add(container("a" + minute, "root.a", 2, minute, 50));
            events.add(container("b" + minute, "root.b", 5, minute + 5, 30));
        }
        return events;
    }

    private String container(String id, String queue, int vcores, int minute, int length) {
        return ("{\"type\":\"YarnContainerEvent\",\"eventId\":\"%s\",\"cluster\":\"%s\",\"eventTime\":\"%s\","
                + "\"applicationId\":\"application_1_0001\",\"attemptId\":\"appattempt_1_0001_01\","
                + "\"containerId\":\"%s\",\"queue\":\"%s\",\"user\":\"u\",\"allocatedMemoryMb\":0,"
                + "\"allocatedVcores\":%d,\"node\":\"n1\",\"state\":\"COMPLETE\",\"createdTime\":\"%s\","
                + "\"finishedTime\":\"%s\"}").formatted(id, cluster, at(minute + length), id, queue, vcores,
                        at(minute), at(minute + length));
    }

    /** 2026-11-20 at {@code minute} minutes past midnight, UTC. */
    static String at(int minute) {
        return "2026-11-20T%02d:%02d:00Z".formatted(minute / 60, minute % 60);
    }

    /** {@code fairledger account} on {@code lines} under {@link #SETTINGS}: its statements.json. */
    static JsonNode account(List<String> lines, String until) throws Exception {
        Path dir = Files.createTempDirectory("fairledger-account");
        Files.write(dir.resolve("events.jsonl"), lines);
        Files.writeString(dir.resolve("settings.json"), SETTINGS);
        int exit = new CommandLine(new AccountCommand()).execute("--events", dir.resolve("events.jsonl").toString(),
                "--config", dir.resolve("settings.json").toString(), "--out", dir.resolve("out").toString(),
                "--until", until);
        assertThat(exit).isZero();
        return JSON.readTree(dir.resolve("out/statements.json").toFile());
    }

    /** The YARN topic in one partition, so that the same events published again land at the same offsets. */
    void createTopic() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
    }

    void publish(List<String> lines) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.LINGER_MS_CONFIG, 5),
                new StringSerializer(), new StringSerializer())) {
            lines.forEach(line -> producer.send(new ProducerRecord<>(TOPIC, cluster, line)));
            producer.flush();
        }
    }

    /** Registers the cluster and puts {@link #SETTINGS}. */
    void register(ServerProcess server) {
        given().baseUri(server.baseUrl()).contentType(ContentType.JSON)
                .body("{\"id\":\"" + cluster + "\",\"resourceManager\":\"YARN\"}").post("/api/v1/admin/clusters")
                .then().statusCode(201);
        given().baseUri(server.baseUrl()).contentType(ContentType.JSON).body(SETTINGS)
                .put("/api/v1/admin/clusters/" + cluster + "/ledger-settings").then().statusCode(200);
    }

    /** The statements of the periods ended by {@code until}, the body exactly as served. */
    String statements(ServerProcess server, String until) {
        return given().baseUri(server.baseUrl()).accept(ContentType.JSON).queryParam("until", until)
                .get("/api/v1/admin/clusters/" + cluster + "/statements").then().statusCode(200).extract()
                .asString();
    }

    long closedPeriods() throws Exception {
        return count("select count(*) from closed_statement where cluster_id = ?");
    }

    long checkpoints() throws Exception {
        return count("select count(*) from ledger_checkpoint where cluster_id = ?");
    }

    private long count(String sql) throws Exception {
        try (Connection db = DriverManager.getConnection(postgres.get("quarkus.datasource.jdbc.url"),
                postgres.get("quarkus.datasource.username"), postgres.get("quarkus.datasource.password"));
                PreparedStatement st = db.prepareStatement(sql)) {
            st.setString(1, cluster);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** The environment of a server on this PostgreSQL and Kafka. */
    Map<String, String> serverEnv() {
        return Map.of("QUARKUS_DATASOURCE_JDBC_URL", postgres.get("quarkus.datasource.jdbc.url"),
                "QUARKUS_DATASOURCE_USERNAME", postgres.get("quarkus.datasource.username"),
                "QUARKUS_DATASOURCE_PASSWORD", postgres.get("quarkus.datasource.password"),
                "KAFKA_BOOTSTRAP_SERVERS", bootstrap);
    }
}
