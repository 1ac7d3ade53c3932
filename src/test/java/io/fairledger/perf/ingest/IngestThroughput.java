package io.fairledger.perf.ingest;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import io.fairledger.ingest.schema.EventDecoder;
import io.fairledger.ingest.schema.EventTopics;
import io.fairledger.perf.CommittedOffsets;
import io.fairledger.perf.KafkaReadRate;
import io.fairledger.perf.PackagedServer;
import io.fairledger.perf.ProcessStats;
import io.fairledger.testsupport.RealDependency;

/**
 * The ingestion load tool: events per second from topic to committed ledger (facts and offsets in PostgreSQL) for
 * 1,000 tenants and 100,000 running tasks, next to Kafka's own {@code ConsumerPerformance} reading the same topic in
 * the same run. Prints both figures; asserts nothing.
 *
 * <pre>
 * ./mvnw -B package -DskipTests
 * ./mvnw -Pbench test-compile exec:exec -Dbench.main=io.fairledger.perf.ingest.IngestThroughput
 * </pre>
 *
 * Option {@code --late F} (0 unless given; at most 0.25): a fraction {@code F} of the events is the RUNNING of a container
 * that finishes in the run, delivered only after its COMPLETE (which repeats the start, so that start is stored first)
 * and {@value #LATE_GAP} loop steps (10,000 to 20,000 events) later, in a later batch: the late RUNNING of
 * {@code HistoryScale}'s workload (about 2.4% of its events), whose batch holds a stored key.
 * {@code -Dbench="--late 0.025"}.
 * <p>
 * Environment: {@code BENCH_SERVER_JAR} runs another build of the server (A/B under the same load);
 * {@code BENCH_SERVER_JVM_OPTS} adds JVM options to the server, e.g.
 * {@code -XX:StartFlightRecording=filename=/tmp/server.jfr,settings=profile}.
 */
public final class IngestThroughput {

    private static final int TENANTS = 1_000;
    private static final int RUNNING = 100_000;
    private static final String CLUSTER = "bench-yarn";
    /** The first container number of the warm-up's events (BENCH_WARMUP), after the measured run's. */
    private static final int WARMUP_CONTAINERS = 1_000_000;
    /** How many loop steps (one or two events each) after its COMPLETE a late RUNNING is delivered. */
    static final int LATE_GAP = 10_000;

    /** The share of events that are a late RUNNING ({@code --late}), from the arguments. */
    static double late(String[] args) {
        List<String> given = new ArrayList<>(List.of(args));
        given.remove(".*"); // the bench profile's default argument
        if (given.isEmpty()) {
            return 0;
        }
        if (given.size() != 2 || !given.get(0).equals("--late")) {
            throw new IllegalArgumentException("the only option is --late F, got: " + String.join(" ", args));
        }
        double late = Double.parseDouble(given.get(1));
        if (!(late >= 0 && late <= 0.25)) {
            throw new IllegalArgumentException("--late is a fraction of the events from 0 to 0.25, got " + late);
        }
        return late;
    }

    public static void main(String[] args) throws Exception {
        double late = late(args);
        List<byte[]> events = events(0, late);
        try (PackagedServer server = PackagedServer.start(PackagedServer.jar(), Duration.ofMinutes(2))) {
            RealDependency.Running postgres = server.postgres();
            String bootstrap = server.bootstrap();
            String base = server.base();
            String management = server.management();
            post(base + "/api/v1/admin/clusters", "{\"id\":\"" + CLUSTER + "\",\"resourceManager\":\"YARN\"}");
            // BENCH_WARMUP=1: the same workload for other containers first, not measured, so that the measured
            // run finds the server's code compiled (a server that ingests all day) rather than just started
            int warmup = 0;
            if ("1".equals(System.getenv("BENCH_WARMUP"))) {
                List<byte[]> warm = events(WARMUP_CONTAINERS, late);
                produce(bootstrap, warm);
                System.out.printf("warm-up: %.0f events/s%n",
                        CommittedOffsets.awaitRate(postgres, EventTopics.YARN_CONTAINERS, 0, warm.size()));
                warmup = warm.size();
            }
            Map<Long, Duration> pgBefore = ProcessStats.postgresCpu(postgres);
            Duration serverBefore = ProcessStats.cpu(server.pid());
            Map<String, Long> threadsBefore = ProcessStats.threadCpuTicks(server.pid());
            produce(bootstrap, events);
            double fairledgerRate = CommittedOffsets.awaitRate(postgres, EventTopics.YARN_CONTAINERS, warmup,
                    warmup + events.size());
            Duration serverCpu = ProcessStats.cpu(server.pid()).minus(serverBefore);
            Map<String, Long> threadsAfter = ProcessStats.threadCpuTicks(server.pid());
            Duration pgCpu = ProcessStats.postgresCpuSince(pgBefore, ProcessStats.postgresCpu(postgres));
            double kafkaOwn = KafkaReadRate.recordsPerSecond(bootstrap, EventTopics.YARN_CONTAINERS, events.size());
            HttpResponse<String> metrics = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create(management + "/q/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString());
            metrics.body().lines().filter(
                    l -> l.startsWith("fairledger_ingest_") && !l.contains("_bucket") && !l.contains("_events_"))
                    .forEach(System.out::println);
            System.out.printf("%nevents: %d (%d tenants, %d running tasks at the end; %.1f%% late RUNNING)%n",
                    events.size(), TENANTS, RUNNING, late * 100);
            System.out.printf("fairledger, topic to committed ledger: %.0f events/s%n", fairledgerRate);
            System.out.printf("Kafka ConsumerPerformance, same topic:  %.0f events/s%n", kafkaOwn);
            System.out.printf("ratio: %.2f (goal: at least 0.5)%n", fairledgerRate / kafkaOwn);
            System.out.printf("CPU per event while ingesting: server %.1f us, PostgreSQL %.1f us "
                    + "(independent of how busy the machine is, unlike the rates)%n",
                    serverCpu.toNanos() / 1e3 / events.size(), pgCpu.toNanos() / 1e3 / events.size());
            ProcessStats.printThreadCpu(threadsBefore, threadsAfter, events.size());
            System.out.printf("load average: %s%n", ProcessStats.loadAverage());
        }
    }

    /**
     * 100,000 container starts over 1,000 queues, then 50,000 finishes and 50,000 more starts; containers numbered from
     * {@code first}. Of the finishing containers, enough to make {@code late} of the events, evenly spread, have their
     * RUNNING delivered {@link #LATE_GAP} steps after their COMPLETE instead of before it.
     */
    private static List<byte[]> events(int first, double late) {
        int finishing = RUNNING / 2;
        int total = 2 * RUNNING;
        double lateShare = late * total / finishing;
        List<byte[]> out = new ArrayList<>();
        java.util.TreeMap<Integer, List<byte[]>> held = new java.util.TreeMap<>();
        long t = 1_795_132_800_000L;
        for (int i = 0; i < RUNNING + RUNNING / 2; i++) {
            boolean lateRunning = i < finishing && (int) ((i + 1) * lateShare) > (int) (i * lateShare);
            byte[] running = container(first, i, t + i, "RUNNING", "");
            if (lateRunning) {
                held.computeIfAbsent(RUNNING + i + LATE_GAP, k -> new ArrayList<>()).add(running);
            } else {
                out.add(running);
            }
            if (i >= RUNNING) {
                int done = i - RUNNING;
                out.add(container(first, done, t + i, "COMPLETE", ",\"finishedTime\":" + (t + i)));
            }
            List<byte[]> due = held.remove(i);
            if (due != null) {
                out.addAll(due);
            }
        }
        held.values().forEach(out::addAll);
        return out;
    }

    /** Container {@code first + i}'s event; its creation time depends on {@code i} only, as in every round. */
    private static byte[] container(int first, int i, long at, String state, String extra) {
        return ("{\"type\":\"YarnContainerEvent\",\"eventId\":\"e-%d-%s\",\"cluster\":\"%s\",\"eventTime\":%d,"
                + "\"applicationId\":\"application_1_%d\",\"attemptId\":\"appattempt_1_%d_1\",\"containerId\":"
                + "\"container_%d\",\"queue\":\"root.t%d\",\"user\":\"u\",\"allocatedMemoryMb\":2048,"
                + "\"allocatedVcores\":1,\"node\":\"n%d\",\"state\":\"%s\",\"createdTime\":%d%s}")
                .formatted(first + i, state, CLUSTER, at, i % 5000, i % 5000, first + i, i % TENANTS, i % 500, state,
                        1_795_132_800_000L + i, extra)
                .getBytes(StandardCharsets.UTF_8);
    }

    private static void produce(String bootstrap, List<byte[]> events) {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.LINGER_MS_CONFIG, 20,
                ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024), new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (byte[] e : events) {
                ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(EventTopics.YARN_CONTAINERS,
                        CLUSTER.getBytes(StandardCharsets.UTF_8), e);
                r.headers().add(EventDecoder.CONTENT_TYPE_HEADER, EventDecoder.JSON.getBytes(StandardCharsets.UTF_8));
                producer.send(r);
            }
            producer.flush();
        }
    }

    private static void post(String url, String json) throws IOException, InterruptedException {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json))
                .build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300) {
            throw new IllegalStateException(url + " answered " + response.statusCode() + ": " + response.body());
        }
    }
}
