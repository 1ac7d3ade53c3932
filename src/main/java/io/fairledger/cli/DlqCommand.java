package io.fairledger.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import io.fairledger.core.model.PlainText;
import io.fairledger.ingest.schema.EventTopics;
import io.fairledger.kafka.KafkaClientConfig;

/**
 * {@code fairledger dlq}: lists the dead letters by reason (each with where it came from: source topic, partition,
 * offset and timestamp, from the headers the server adds) and, with {@code --redrive}, sends chosen ones back to their
 * source topic with their original key, value and headers, once the cause is fixed (a cluster registered, a bridge
 * corrected). Dead letters are never removed: Kafka keeps them for the topic's retention, and a re-driven record that
 * fails again is dead-lettered again.
 */
@Command(name = "dlq", mixinStandardHelpOptions = true, description = "List dead letters by reason; re-drive chosen ones to their source topic.")
public final class DlqCommand implements Callable<Integer> {

    private static final Duration POLL = Duration.ofMillis(500);

    @Spec
    CommandSpec spec;

    @Option(names = "--bootstrap-servers", paramLabel = "H:P", description = "Kafka bootstrap servers (else bootstrap.servers of --command-config).")
    String bootstrapServers;

    @Option(names = "--command-config", paramLabel = "FILE", description = "Kafka client settings, a properties file as Kafka's tools take (security.protocol, sasl.*, ssl.*, ...).")
    Path commandConfig;

    @Option(names = "--reason", paramLabel = "TEXT", description = "Only dead letters whose reason contains TEXT (its code, say, or a cluster id).")
    String reason;

    @Option(names = "--at", paramLabel = "P@O", split = ",", description = "Only the dead letters at these positions of the dead-letter topic (partition@offset, as listed).")
    List<String> positions;

    @Option(names = "--redrive", description = "Send the chosen dead letters back to their source topics (needs --reason or --at).")
    boolean redrive;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Set<String> chosenPositions = positions == null ? Set.of() : new HashSet<>(positions);
        if (redrive && reason == null && chosenPositions.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--redrive needs --reason or --at to choose letters");
        }
        Map<String, Object> given = KafkaCommandConfig.read(spec, commandConfig, bootstrapServers);
        List<ConsumerRecord<byte[], byte[]>> letters = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> letter : readAll(given)) {
            if ((reason == null || header(letter, EventTopics.REASON_HEADER).contains(reason))
                    && (chosenPositions.isEmpty() || chosenPositions.contains(position(letter)))) {
                letters.add(letter);
            }
        }
        list(out, letters);
        if (!redrive) {
            return 0;
        }
        int failed = redrive(given, letters, out, err);
        return failed == 0 ? 0 : 1;
    }

    /** Every dead letter in the topic now, in partition and offset order. */
    private static List<ConsumerRecord<byte[], byte[]>> readAll(Map<String, Object> given) {
        Map<String, Object> config = KafkaClientConfig.consumer(given,
                Map.of(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false),
                Map.of(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false));
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        List<ConsumerRecord<byte[], byte[]>> letters = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (PartitionInfo info : consumer.partitionsFor(EventTopics.DEAD_LETTERS)) {
                partitions.add(new TopicPartition(info.topic(), info.partition()));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = new LinkedHashMap<>(consumer.endOffsets(partitions));
            end.entrySet().removeIf(e -> consumer.position(e.getKey()) >= e.getValue());
            while (!end.isEmpty()) {
                for (ConsumerRecord<byte[], byte[]> letter : consumer.poll(POLL)) {
                    Long last = end.get(new TopicPartition(letter.topic(), letter.partition()));
                    if (last != null && letter.offset() < last) {
                        letters.add(letter);
                    }
                }
                end.entrySet().removeIf(e -> consumer.position(e.getKey()) >= e.getValue());
            }
        }
        letters.sort((a, b) -> a.partition() != b.partition()
                ? Integer.compare(a.partition(), b.partition())
                : Long.compare(a.offset(), b.offset()));
        return letters;
    }

    /** Counts by reason code, then each letter under its code. */
    private static void list(PrintWriter out, List<ConsumerRecord<byte[], byte[]>> letters) {
        Map<String, List<ConsumerRecord<byte[], byte[]>>> byCode = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> letter : letters) {
            byCode.computeIfAbsent(code(header(letter, EventTopics.REASON_HEADER)), k -> new ArrayList<>())
                    .add(letter);
        }
        out.printf("%d dead letter(s) in %s%n", letters.size(), EventTopics.DEAD_LETTERS);
        byCode.forEach((code, group) -> out.printf("%8d  %s%n", group.size(), code));
        byCode.forEach((code, group) -> {
            out.printf("%n%s:%n", code);
            for (ConsumerRecord<byte[], byte[]> letter : group) {
                out.printf("  %s  from %s-%s@%s  %s  %s%n", position(letter),
                        header(letter, EventTopics.SOURCE_TOPIC_HEADER),
                        header(letter, EventTopics.SOURCE_PARTITION_HEADER),
                        header(letter, EventTopics.SOURCE_OFFSET_HEADER),
                        sourceTime(header(letter, EventTopics.SOURCE_TIMESTAMP_HEADER)),
                        header(letter, EventTopics.REASON_HEADER));
            }
        });
        out.flush();
    }

    /** Sends each letter to its source topic, without the dead-letter headers; returns how many could not be. */
    private static int redrive(Map<String, Object> given, List<ConsumerRecord<byte[], byte[]>> letters,
            PrintWriter out, PrintWriter err) throws InterruptedException {
        Map<String, Object> config = KafkaClientConfig.producer(given, Map.of(ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000), Map.of());
        int sent = 0;
        int failed = 0;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            Map<String, Future<RecordMetadata>> pending = new LinkedHashMap<>();
            for (ConsumerRecord<byte[], byte[]> letter : letters) {
                String source = header(letter, EventTopics.SOURCE_TOPIC_HEADER);
                if (source.isEmpty()) {
                    err.printf("fairledger dlq: %s names no source topic; not re-driven%n", position(letter));
                    failed++;
                    continue;
                }
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(source, null, letter.key(),
                        letter.value());
                for (Header header : letter.headers()) {
                    if (!header.key().startsWith(EventTopics.DEAD_LETTER_HEADER_PREFIX)) {
                        record.headers().add(header);
                    }
                }
                pending.put(position(letter) + " to " + source, producer.send(record));
            }
            for (Map.Entry<String, Future<RecordMetadata>> e : pending.entrySet()) {
                try {
                    e.getValue().get(60, TimeUnit.SECONDS);
                    sent++;
                } catch (ExecutionException | java.util.concurrent.TimeoutException ex) {
                    err.printf("fairledger dlq: %s not re-driven: %s%n", e.getKey(), ex.getMessage());
                    failed++;
                }
            }
        }
        out.printf("re-drove %d dead letter(s) to their source topics; %d failed%n", sent, failed);
        out.flush();
        return failed;
    }

    private static String position(ConsumerRecord<byte[], byte[]> letter) {
        return letter.partition() + "@" + letter.offset();
    }

    /** The reason's stable code: its text before the first colon. */
    private static String code(String reason) {
        int colon = reason.indexOf(':');
        return reason.isEmpty() ? "(no reason)" : colon < 0 ? reason : reason.substring(0, colon);
    }

    /**
     * A header's text, control characters escaped ({@link PlainText#escaped}): a reason may quote an event's field,
     * and anyone who can write to the topic can write any header, so none reaches the terminal raw.
     */
    private static String header(ConsumerRecord<byte[], byte[]> letter, String key) {
        Header header = letter.headers().lastHeader(key);
        return header == null ? "" : PlainText.escaped(new String(header.value(), StandardCharsets.UTF_8));
    }

    /** The source timestamp header as an instant, or as written when it is not a number of milliseconds. */
    private static String sourceTime(String millis) {
        try {
            return millis.isEmpty() ? "-" : Instant.ofEpochMilli(Long.parseLong(millis)).toString();
        } catch (NumberFormatException e) {
            return millis;
        }
    }
}
