package io.fairledger.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import io.fairledger.ingest.schema.EventDecoder;
import io.fairledger.ingest.schema.EventType;
import io.fairledger.kafka.KafkaClientConfig;
import io.fairledger.simulation.ProgressBar;

/**
 * {@code fairledger replay --events F.jsonl --bootstrap-servers H:P [--command-config FILE] [--rate N]}: publishes a JSONL file of events to
 * their topics (chosen by each line's {@code type}; the Mesos shapes a bridge forwards, such as an operator
 * {@code TASK_ADDED}, go to the Mesos task topic), keyed by cluster, in the JSON encoding; a demo feed, a backfill
 * or a load generator. Lines are sent as they are: validating them is the server's job, and bad ones end in its
 * dead-letter topic. A line without a known type cannot be routed and is reported here.
 */
@Command(name = "replay", mixinStandardHelpOptions = true, description = "Publish a JSONL file of events to Kafka (demo feed, backfill, load generator).")
public final class ReplayCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Spec
    CommandSpec spec;

    @Option(names = "--events", required = true, paramLabel = "F.jsonl", description = "Events, one JSON object per line, each with its \"type\".")
    Path events;

    @Option(names = "--bootstrap-servers", paramLabel = "H:P", description = "Kafka bootstrap servers (else bootstrap.servers of --command-config).")
    String bootstrapServers;

    @Option(names = "--command-config", paramLabel = "FILE", description = "Kafka client settings, a properties file as Kafka's tools take (security.protocol, sasl.*, ssl.*, ...).")
    Path commandConfig;

    @Option(names = "--rate", paramLabel = "N", defaultValue = "0", description = "Events per second; 0 sends as fast as the broker takes them (default: ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--quiet", description = "No progress bar (it is also off when stderr is not a terminal).")
    boolean quiet;

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        long total;
        try (var lines = Files.lines(events)) {
            total = lines.filter(l -> !l.isBlank()).count();
        } catch (NoSuchFileException e) {
            err.println("fairledger replay: no events file " + events);
            return 2;
        }
        Map<String, Object> given = KafkaCommandConfig.read(spec, commandConfig, bootstrapServers);
        Map<String, Object> config = KafkaClientConfig.producer(given, Map.of(ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, 5, ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000), Map.of());
        long sent = 0;
        long unroutable = 0;
        AtomicLong failed = new AtomicLong();
        AtomicReference<String> firstFailure = new AtomicReference<>();
        long started = System.nanoTime();
        ProgressBar progress = ProgressBar.onStderr(err, quiet, total, "events");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
                new ByteArraySerializer());
                BufferedReader in = Files.newBufferedReader(events, StandardCharsets.UTF_8)) {
            int lineNumber = 0;
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                lineNumber++;
                if (line.isBlank()) {
                    continue;
                }
                Route route = route(line);
                if (route == null) {
                    err.println("fairledger replay: line " + lineNumber
                            + " is neither an event with a known \"type\" nor a Mesos task shape; not sent");
                    unroutable++;
                    progress.advance(1);
                    continue;
                }
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(route.topic(),
                        route.cluster().getBytes(StandardCharsets.UTF_8), line.getBytes(StandardCharsets.UTF_8));
                record.headers().add(EventDecoder.CONTENT_TYPE_HEADER,
                        EventDecoder.JSON.getBytes(StandardCharsets.UTF_8));
                producer.send(record, (metadata, error) -> {
                    if (error != null && failed.getAndIncrement() == 0) {
                        firstFailure.set(error.getMessage());
                    }
                });
                sent++;
                pace(sent, started);
                progress.advance(1);
            }
            producer.flush();
        }
        progress.finish();
        if (failed.get() > 0) {
            err.printf("fairledger replay: %d event(s) not accepted by the broker, the first: %s%n", failed.get(),
                    firstFailure.get());
        }
        out.printf("sent %d event(s) to %s; %d unroutable%n", sent - failed.get(),
                given.get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG), unroutable);
        return unroutable == 0 && failed.get() == 0 ? 0 : 1;
    }

    private record Route(String topic, String cluster) {
    }

    private static Route route(String line) {
        try {
            JsonNode node = JSON.readTree(line);
            return EventType.ofJson(node).map(type -> new Route(type.topic(), node.path("cluster").asText("")))
                    .orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    private void pace(long sent, long started) throws InterruptedException {
        if (rate <= 0) {
            return;
        }
        long due = started + (long) (sent / rate * 1e9);
        long wait = due - System.nanoTime();
        if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
        }
    }
}
