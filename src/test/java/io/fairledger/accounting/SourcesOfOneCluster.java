package io.fairledger.accounting;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import picocli.CommandLine;

import io.fairledger.cli.AccountCommand;
import io.fairledger.ingest.schema.EventDecoder;
import io.fairledger.ingest.schema.EventTopics;

/**
 * One cluster's YARN container events on chosen partitions of the events topic, and what {@code fairledger account}
 * says of them: for {@link SourceWatermarksTest} and {@link IdleSourceTest}.
 */
final class SourcesOfOneCluster {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Two tenants, root.a and root.b (weight 2), 10 vcores, hourly periods, 30 minutes of lateness, USAGE. */
    static final String SETTINGS = """
            {"registeredAt":"2026-11-20T00:00:00Z","capacity":{"vcores":10,"memoryMb":10240,"gpus":0},
             "memory":{"mode":"FULL"},"period":{"length":"PT1H"},"allowedLateness":"PT30M",
             "chargeback":{"model":"USAGE","plans":[{"name":"std","perVcoreHour":"1","perGbHour":"0",
             "perGpuHour":"0"}]},"tenants":[{"path":"root.a","weight":1},{"path":"root.b","weight":2}]}""";

    private final String cluster;
    private final String bootstrap;

    SourcesOfOneCluster(String cluster, String bootstrap) {
        this.cluster = cluster;
        this.bootstrap = bootstrap;
    }

    /**
     * A completed container of {@code vcores} in {@code queue}, from {@code minute} to {@code minute + length} after
     * 2026-11-20T00:00Z (its event time is its end).
     */
    String container(String id, String queue, int vcores, int minute, int length) {
        return ("{\"type\":\"YarnContainerEvent\",\"eventId\":\"%s\",\"cluster\":\"%s\",\"eventTime\":\"%s\","
                + "\"applicationId\":\"application_1_0001\",\"attemptId\":\"appattempt_1_0001_01\","
                + "\"containerId\":\"%s\",\"queue\":\"%s\",\"user\":\"u\",\"allocatedMemoryMb\":0,"
                + "\"allocatedVcores\":%d,\"node\":\"n1\",\"state\":\"COMPLETE\",\"createdTime\":\"%s\","
                + "\"finishedTime\":\"%s\"}").formatted(id, cluster, at(minute + length), id, queue, vcores, at(minute),
                        at(minute + length));
    }

    private static String at(int minute) {
        return "2026-11-20T%02d:%02d:00Z".formatted(minute / 60, minute % 60);
    }

    /** Sends {@code lines} to {@code partition} of the YARN containers topic, in order, and waits for the broker. */
    void publish(int partition, List<String> lines) {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.LINGER_MS_CONFIG, 5),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (String line : lines) {
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(EventTopics.YARN_CONTAINERS, partition,
                        cluster.getBytes(StandardCharsets.UTF_8), line.getBytes(StandardCharsets.UTF_8));
                record.headers().add(EventDecoder.CONTENT_TYPE_HEADER,
                        EventDecoder.JSON.getBytes(StandardCharsets.UTF_8));
                producer.send(record);
            }
            producer.flush();
        }
    }

    /** The events of the cluster whose facts are stored, from {@code partition}. */
    long stored(DataSource dataSource, int partition) throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "SELECT count(DISTINCT event_id) FROM ledger_fact WHERE cluster_id = ? AND source_partition = ?")) {
            ps.setString(1, cluster);
            ps.setInt(2, partition);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** The statements {@code fairledger account} gives for {@code lines} up to {@code until}. */
    JsonNode account(List<String> lines, String until) throws Exception {
        Path dir = Files.createTempDirectory("fairledger-account");
        Files.write(dir.resolve("events.jsonl"), new ArrayList<>(lines));
        Files.writeString(dir.resolve("settings.json"), SETTINGS);
        int exit = new CommandLine(new AccountCommand()).execute("--events", dir.resolve("events.jsonl").toString(),
                "--config", dir.resolve("settings.json").toString(), "--out", dir.resolve("out").toString(),
                "--until", until);
        assertThat(exit).isZero();
        return JSON.readTree(dir.resolve("out/statements.json").toFile());
    }
}
