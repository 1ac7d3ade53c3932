package io.fairledger.perf.history;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fairledger.ingest.schema.EventDecoder;
import io.fairledger.ingest.schema.EventTopics;
import io.fairledger.perf.CommittedOffsets;
import io.fairledger.perf.KafkaReadRate;
import io.fairledger.perf.ProcessStats;
import io.fairledger.perf.memory.ServerMemory;
import io.fairledger.testsupport.EventPublisher;
import io.fairledger.testsupport.KafkaDependency;
import io.fairledger.testsupport.PostgresDependency;
import io.fairledger.testsupport.Processes;
import io.fairledger.testsupport.RealDependency;
import io.fairledger.testsupport.ServerEnvironment;

/**
 * Load tool for issue #15's history at scale: a month of YARN history ({@link HistoryWorkload}: by default 10,000,000
 * facts of 1,000 queues over 30 daily periods, 5% of the events late by up to a day) streamed through a real Kafka
 * broker into the packaged server (its real consumer) and a real PostgreSQL; then, over HTTP, the figures of the
 * issue's acceptance, each printed next to its goal as PASS or MISS: ingest rate and its ratio to Kafka's own
 * {@code ConsumerPerformance} on the same topic; statements and tenant fairness p99 over {@code --requests} requests; a
 * late event until the grants change; a restart until the grants answer 200; a what-if over one closed day after a
 * price change and after a weight change; the server's resident memory ({@code /proc}). Last, on a fresh server,
 * database and broker, the resident memory with 10,000 tenants and 100,000 running tasks ({@link ServerMemory}'s
 * workload). Asserts nothing; docs/benchmarks.md has the results and the command.
 *
 * <pre>
 * ./mvnw -B package -DskipTests
 * BENCH_SERVER_JVM_OPTS="-Xmx512m -XX:+UseG1GC -XX:G1PeriodicGCInterval=15000 -XX:MinHeapFreeRatio=20 \
 *     -XX:MaxHeapFreeRatio=40" ./mvnw -B -Pbench test-compile exec:exec \
 *     -Dbench.main=io.fairledger.perf.history.HistoryScale -Dbench="--facts 10000000"
 * </pre>
 *
 * Options: {@code --facts} (10,000,000; two per container), {@code --tenants} (1,000), {@code --days} (30),
 * {@code --late} (0.05), {@code --seed} (15), {@code --requests} (100 of each read), {@code --memory-tenants} (10,000)
 * and {@code --memory-tasks} (100,000; 0 leaves that part out). {@code BENCH_SERVER_JVM_OPTS} as for every load tool
 * (the launcher's options above measure what {@code ./fairledger serve} runs); {@code BENCH_SERVER_JAR} runs another
 * build.
 */
public final class HistoryScale {

    private static final String CLUSTER = "bench-history";
    private static final Instant START = Instant.parse("2026-10-01T00:00:00Z");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    /** Longest wait for one answer, a late fact's effect or a restart. */
    private static final Duration PATIENCE = Duration.ofMinutes(5);
    /** A late event's delay before the latest event (issue #15: late by up to a day). */
    private static final Duration LATE_BY = Duration.ofHours(20);

    private final List<String> summary = new ArrayList<>();

    private HistoryScale() {
    }

    /** The tool's options; see the class comment. */
    record Options(long facts, int tenants, int days, double late, long seed, int requests, int memoryTenants,
            int memoryTasks) {
        static Options parse(String[] args) {
            Map<String, String> given = new HashMap<>();
            for (int i = 0; i < args.length; i += 2) {
                if (!args[i].startsWith("--") || i + 1 >= args.length) {
                    throw new IllegalArgumentException("options are --name value pairs, got: " + String.join(" ",
                            args));
                }
                given.put(args[i].substring(2), args[i + 1]);
            }
            Options o = new Options(Long.parseLong(given.getOrDefault("facts", "10000000")),
                    Integer.parseInt(given.getOrDefault("tenants", "1000")),
                    Integer.parseInt(given.getOrDefault("days", "30")),
                    Double.parseDouble(given.getOrDefault("late", "0.05")),
                    Long.parseLong(given.getOrDefault("seed", "15")),
                    Integer.parseInt(given.getOrDefault("requests", "100")),
                    Integer.parseInt(given.getOrDefault("memory-tenants", "10000")),
                    Integer.parseInt(given.getOrDefault("memory-tasks", "100000")));
            given.keySet().removeAll(List.of("facts", "tenants", "days", "late", "seed", "requests",
                    "memory-tenants", "memory-tasks"));
            if (!given.isEmpty()) {
                throw new IllegalArgumentException("unknown options: " + given.keySet());
            }
            if (o.days < 3 || o.facts < 2 || o.tenants < 1 || o.requests < 1) {
                throw new IllegalArgumentException("need --days >= 3, --facts >= 2, --tenants >= 1, --requests >= 1");
            }
            return o;
        }
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        String otherJar = System.getenv("BENCH_SERVER_JAR");
        Path jar = Path.of(otherJar == null ? "target/quarkus-app/quarkus-run.jar" : otherJar);
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("package the server first: ./mvnw -B package -DskipTests");
        }
        System.out.printf("%s; load average %s%n", options, ProcessStats.loadAverage());
        HistoryScale tool = new HistoryScale();
        tool.history(jar, options);
        if (options.memoryTasks() > 0) {
            tool.runningTasks(jar, options);
        }
        System.out.printf("%n%-58s %-22s %-14s %s%n", "figure", "measured", "goal", "");
        tool.summary.forEach(System.out::println);
        System.out.printf("load average: %s%n", ProcessStats.loadAverage());
    }

    /** The history's part: ingest, reads, a late fact, what-ifs, memory, a restart. */
    private void history(Path jar, Options o) throws Exception {
        HistoryWorkload workload = new HistoryWorkload(CLUSTER, START, o.facts(), o.days(), o.tenants(), o.late(),
                o.seed());
        long events = o.facts() / 2 * 2;
        try (RealDependency.Running postgres = PostgresDependency.start();
                RealDependency.Running kafka = KafkaDependency.start()) {
            String bootstrap = kafka.config().get("kafka.bootstrap.servers");
            int port = Processes.freePort();
            int managementPort = Processes.freePort();
            String base = "http://127.0.0.1:" + port;
            String management = "http://127.0.0.1:" + managementPort;
            Process server = ServerEnvironment.startPackaged(jar, port, managementPort, postgres, kafka);
            try {
                Processes.awaitHttpOk("fairledger", management + "/q/health/ready", server, Duration.ofMinutes(3),
                        "the server log");
                send("POST", base + "/api/v1/admin/clusters",
                        "{\"id\":\"" + CLUSTER + "\",\"resourceManager\":\"YARN\"}", 201);
                String settings = settings(workload, o.tenants(), "0.04", -1);
                send("PUT", base + "/api/v1/admin/clusters/" + CLUSTER + "/ledger-settings", settings, 200);

                // ingest: the producer streams the history while the server consumes it
                AtomicReference<HistoryWorkload.Delivered> delivered = new AtomicReference<>();
                AtomicReference<Throwable> producerFailure = new AtomicReference<>();
                long produceStart = System.nanoTime();
                Thread producer = new Thread(() -> {
                    try {
                        delivered.set(produce(bootstrap, workload));
                    } catch (Throwable t) {
                        producerFailure.set(t);
                    }
                }, "history-producer");
                Duration serverCpuBefore = ProcessStats.cpu(server.pid());
                Map<String, Long> threadsBefore = ProcessStats.threadCpuTicks(server.pid());
                Map<Long, Duration> postgresBefore = ProcessStats.postgresCpu(postgres);
                producer.start();
                double eventsPerSecond = CommittedOffsets.awaitRate(postgres, EventTopics.YARN_CONTAINERS, 0, events);
                long ingested = System.nanoTime();
                Duration serverCpu = ProcessStats.cpu(server.pid()).minus(serverCpuBefore);
                Map<String, Long> threadsAfter = ProcessStats.threadCpuTicks(server.pid());
                Duration postgresCpu = ProcessStats.postgresCpuSince(postgresBefore,
                        ProcessStats.postgresCpu(postgres));
                producer.join();
                if (producerFailure.get() != null) {
                    throw new IllegalStateException("the producer failed", producerFailure.get());
                }
                HistoryWorkload.Delivered history = delivered.get();
                System.out.printf("%,d events (%,d late) produced and committed in %.1f s; server CPU %.1f us/event%n",
                        history.events(), history.late(), (ingested - produceStart) / 1e9,
                        serverCpu.toNanos() / 1e3 / history.events());
                System.out.printf("PostgreSQL CPU %.1f us/event; the server's by thread:%n",
                        postgresCpu.toNanos() / 1e3 / history.events());
                ProcessStats.printThreadCpu(threadsBefore, threadsAfter, history.events());
                String grants = base + "/api/v1/clusters/" + CLUSTER + "/grants";
                Instant lastEvent = Instant.ofEpochMilli(history.lastEventTimeMs());
                String etag = awaitSettled(grants, management, lastEvent);
                System.out.printf("live ledger at the latest event and settled %.1f s after the last commit%n",
                        (System.nanoTime() - ingested) / 1e9);
                long facts = count(postgres, "SELECT count(*) FROM ledger_fact WHERE cluster_id = '" + CLUSTER + "'");
                long closed = count(postgres,
                        "SELECT count(*) FROM closed_statement WHERE cluster_id = '" + CLUSTER + "'");
                System.out.printf("%,d facts stored (%.2f per event), %,d closed statements; %s%n", facts,
                        facts / (double) history.events(), closed,
                        metric(management, "fairledger_live_rebuilds_total"));
                double kafkaOwn = KafkaReadRate.recordsPerSecond(bootstrap, EventTopics.YARN_CONTAINERS, events);
                double ratio = eventsPerSecond / kafkaOwn;
                figure("facts stored (goal: at least 10,000,000)", "%,d".formatted(facts), ">= 10,000,000",
                        facts >= 10_000_000);
                figure("ingest, topic to committed ledger", "%,.0f facts/s".formatted(
                        eventsPerSecond * facts / history.events()), "", null);
                figure("ingest ratio to ConsumerPerformance (%,.0f/%,.0f ev/s)".formatted(eventsPerSecond, kafkaOwn),
                        "%.2f".formatted(ratio), ">= 0.57", ratio >= 0.57);
                resident("after ingest", server.pid());

                Random random = new Random(o.seed());
                String statementsUrl = base + "/api/v1/admin/clusters/" + CLUSTER + "/statements";
                Map<String, Long> states = new TreeMap<>();
                JSON.readTree(get(statementsUrl, 200)).forEach(s -> states.merge(s.path("state").asText(), 1L,
                        Long::sum));
                System.out.printf("statements by state: %s%n", states);
                Latencies statements = reads(o.requests(), () -> statementsUrl, server.pid());
                figure("statements p99 (%d requests, %,d bytes, p50 %.0f ms, server CPU %.1f ms each)".formatted(
                        o.requests(), statements.bytes, statements.percentile(0.5), statements.cpuMs),
                        "%.0f ms".formatted(statements.percentile(0.99)),
                        "<= 100 ms", statements.percentile(0.99) <= 100);
                Latencies fairness = reads(o.requests(), () -> base + "/api/v1/clusters/" + CLUSTER + "/tenants/root.q"
                        + random.nextInt(o.tenants()) + "/fairness", server.pid());
                figure("tenant fairness p99 (%d requests, p50 %.0f ms, server CPU %.1f ms each)".formatted(
                        o.requests(), fairness.percentile(0.5), fairness.cpuMs),
                        "%.0f ms".formatted(fairness.percentile(0.99)), "<= 50 ms",
                        fairness.percentile(0.99) <= 50);
                Latencies bill = reads(o.requests(), () -> base + "/api/v1/clusters/" + CLUSTER + "/tenants/root.q"
                        + random.nextInt(o.tenants()) + "/statements", server.pid());
                figure("tenant statements p99 (%d requests, %,d bytes, p50 %.0f ms, server CPU %.1f ms each)"
                        .formatted(o.requests(), bill.bytes, bill.percentile(0.5), bill.cpuMs),
                        "%.0f ms".formatted(bill.percentile(0.99)), "", null);

                Map<String, double[]> beforeLate = tickPhases(management);
                lateFact(bootstrap, postgres, base, grants, etag, lastEvent);
                // the tick that applied it may still be closing periods: let it end
                Thread.sleep(3_000);
                System.out.println("live tick phases during the late fact (ticks, seconds): "
                        + phasesSince(beforeLate, tickPhases(management)));

                Instant day = START.plus(Duration.ofDays(o.days() - 2));
                // a price variant without tenants (the live tree), a weight variant with every tenant, root.q0 at 5
                whatIf(base, day, settings(workload, 0, "0.05", -1), "price change", 2);
                whatIf(base, day, settings(workload, o.tenants(), "0.04", 5), "weight change", 10);

                System.out.printf("checkpoints stored: %,d, %,d of them labelled with a period, %,d bytes each on "
                        + "average, %,d bytes in all (state)%n",
                        count(postgres, "SELECT count(*) FROM ledger_checkpoint"),
                        count(postgres, "SELECT count(*) FROM ledger_checkpoint WHERE open_period IS NOT NULL"),
                        count(postgres, "SELECT coalesce(avg(octet_length(state)), 0)::bigint FROM ledger_checkpoint"),
                        count(postgres, "SELECT coalesce(sum(octet_length(state)), 0) FROM ledger_checkpoint"));
                resident("after those requests", server.pid());
                double rss = ProcessStats.megabytes(server.pid(), "VmRSS");
                figure("server resident memory after the requests (peak %.0f MB)".formatted(
                        ProcessStats.megabytes(server.pid(), "VmHWM")), "%.0f MB".formatted(rss), "<= 1024 MB",
                        rss <= 1024);

                long stopping = System.nanoTime();
                Processes.stop(server);
                System.out.printf("server stopped in %.1f s (SIGTERM)%n", (System.nanoTime() - stopping) / 1e9);
                long starting = System.nanoTime();
                server = ServerEnvironment.startPackaged(jar, port, managementPort, postgres, kafka);
                double listening = awaitStatus(grants, 200, server) - starting / 1e9;
                double restart = (System.nanoTime() - starting) / 1e9;
                System.out.printf("restarted: HTTP answering after %.1f s, grants 200 after %.1f s%n", listening,
                        restart);
                figure("restart (process start) to grants 200", "%.1f s".formatted(restart), "<= 10 s",
                        restart <= 10);
                resident("after the restart, grants answered", server.pid());
            } finally {
                Processes.stop(server);
            }
        }
    }

    /** The memory part: a fresh broker, database and server with many tenants and running tasks. */
    private void runningTasks(Path jar, Options o) throws Exception {
        try (RealDependency.Running postgres = PostgresDependency.start();
                RealDependency.Running kafka = KafkaDependency.start()) {
            int port = Processes.freePort();
            int managementPort = Processes.freePort();
            Process server = ServerEnvironment.startPackaged(jar, port, managementPort, postgres, kafka);
            try {
                String management = "http://127.0.0.1:" + managementPort;
                Processes.awaitHttpOk("fairledger", management + "/q/health/ready", server, Duration.ofMinutes(3),
                        "the server log");
                ServerMemory.loadRunningTasks("http://127.0.0.1:" + port, management,
                        kafka.config().get("kafka.bootstrap.servers"), o.memoryTenants(), o.memoryTasks());
                // as ServerMemory measures it: the server gives the heap back 10 s after the feed (QuietHeapTrim)
                Thread.sleep(45_000);
                double rss = ProcessStats.megabytes(server.pid(), "VmRSS");
                figure("resident memory, %,d tenants, %,d running tasks (peak %.0f MB)".formatted(o.memoryTenants(),
                        o.memoryTasks(), ProcessStats.megabytes(server.pid(), "VmHWM")), "%.0f MB".formatted(rss),
                        "<= 600 MB", rss <= 600);
            } finally {
                Processes.stop(server);
            }
        }
    }

    /** Streams the workload to the YARN container topic, keyed by cluster, and waits until the broker has it all. */
    private static HistoryWorkload.Delivered produce(String bootstrap, HistoryWorkload workload) {
        byte[] key = CLUSTER.getBytes(StandardCharsets.UTF_8);
        byte[] json = EventDecoder.JSON.getBytes(StandardCharsets.UTF_8);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.LINGER_MS_CONFIG, 20,
                ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024), new ByteArraySerializer(), new ByteArraySerializer())) {
            HistoryWorkload.Delivered delivered = workload.forEach(e -> {
                ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(EventTopics.YARN_CONTAINERS, key,
                        e.json().getBytes(StandardCharsets.UTF_8));
                r.headers().add(EventDecoder.CONTENT_TYPE_HEADER, json);
                producer.send(r);
            });
            producer.flush();
            return delivered;
        }
    }

    /**
     * One late event through Kafka: a container of {@code root.q7} that started {@link #LATE_BY} before the latest
     * event and still runs. Measures from the broker's acknowledgement until its fact is stored in PostgreSQL, until a
     * tick can read it (every older transaction finished), until the grants' ETag changes and until the tenant's view
     * counts the task.
     */
    private void lateFact(String bootstrap, RealDependency.Running postgres, String base, String grants, String etag,
            Instant lastEvent) throws Exception {
        String tenant = base + "/api/v1/clusters/" + CLUSTER + "/tenants/root.q7";
        int runningBefore = runningTasks(tenant);
        long at = lastEvent.minus(LATE_BY).toEpochMilli();
        String common = ("\"cluster\":\"%s\",\"applicationId\":\"application_1795251600000_999999\",\"attemptId\":"
                + "\"appattempt_1795251600000_999999_000001\",\"containerId\":\"container_1795251600000_999999_01_"
                + "0000001\",\"queue\":\"root.q7\",\"user\":\"late\",\"allocatedMemoryMb\":8192,"
                + "\"allocatedVcores\":4,\"node\":\"node-late:8041\",\"createdTime\":%d,\"startedTime\":%<d")
                .formatted(CLUSTER, at);
        EventPublisher.publishYarn(bootstrap, CLUSTER,
                List.of(HistoryWorkload.line("late-fact", at, "RUNNING", common, "")));
        long sent = System.nanoTime();
        long deadline = sent + PATIENCE.toNanos();
        double grantsSeconds = Double.NaN;
        double viewSeconds = Double.NaN;
        double storedSeconds = Double.NaN;
        double visibleSeconds = Double.NaN;
        String stored = "SELECT count(*) FROM ledger_fact WHERE cluster_id = '" + CLUSTER + "' AND event_time_ms = "
                + at;
        // what a tick reads: the facts of the transactions below the oldest one still running (FactCursor.horizon)
        String visible = stored + " AND tx < pg_snapshot_xmin(pg_current_snapshot())";
        while (System.nanoTime() < deadline && (Double.isNaN(grantsSeconds) || Double.isNaN(viewSeconds))) {
            if (Double.isNaN(storedSeconds) && count(postgres, stored) > 0) {
                storedSeconds = (System.nanoTime() - sent) / 1e9;
            }
            if (Double.isNaN(visibleSeconds) && count(postgres, visible) > 0) {
                visibleSeconds = (System.nanoTime() - sent) / 1e9;
            }
            if (Double.isNaN(grantsSeconds) && HTTP.send(HttpRequest.newBuilder(URI.create(grants))
                    .header("If-None-Match", etag).build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode() == 200) {
                grantsSeconds = (System.nanoTime() - sent) / 1e9;
            }
            if (Double.isNaN(viewSeconds) && runningTasks(tenant) > runningBefore) {
                viewSeconds = (System.nanoTime() - sent) / 1e9;
            }
            Thread.sleep(20);
        }
        System.out.printf("late event (%s before the latest): stored in PostgreSQL (consumer batch and commit) after "
                + "%.2f s, below the fact cursor's horizon after %.2f s, tenant view counts it after %.2f s%n", LATE_BY,
                storedSeconds, visibleSeconds, viewSeconds);
        figure("late fact reflected in grants (ETag changed)", Double.isNaN(grantsSeconds)
                ? "> " + PATIENCE
                : "%.2f s".formatted(grantsSeconds), "<= 2 s", grantsSeconds <= 2);
    }

    private static int runningTasks(String tenantUrl) throws Exception {
        return JSON.readTree(get(tenantUrl, 200)).path("now").path("runningTasks").asInt(-1);
    }

    /** A what-if over the closed day from {@code day} with {@code settings}; prints where it started. */
    private void whatIf(String base, Instant day, String settings, String change, double goalSeconds)
            throws Exception {
        String body = "{\"from\":\"%s\",\"until\":\"%s\",\"settings\":%s}".formatted(day, day.plus(Duration.ofDays(1)),
                settings);
        long t0 = System.nanoTime();
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/admin/clusters/"
                + CLUSTER + "/what-if")).timeout(PATIENCE).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        double seconds = (System.nanoTime() - t0) / 1e9;
        String how;
        if (r.statusCode() == 200) {
            JsonNode answer = JSON.readTree(r.body());
            how = "from %s at %s, %,d facts replayed".formatted(answer.path("startedFrom").asText(),
                    answer.path("startedAt").asText(), answer.path("factsReplayed").asLong());
        } else {
            how = "answered " + r.statusCode() + ": " + r.body().substring(0, Math.min(300, r.body().length()));
        }
        System.out.printf("what-if after a %s: %.2f s, %s%n", change, seconds, how);
        figure("what-if over one day after a " + change, r.statusCode() == 200
                ? "%.2f s".formatted(seconds)
                : "%d after %.1f s".formatted(r.statusCode(), seconds), "<= %.0f s".formatted(goalSeconds),
                r.statusCode() == 200 && seconds <= goalSeconds);
    }

    /**
     * Latencies of {@code n} GET requests (after 3 not counted), each read to its end; the last body's size; the CPU
     * time the server process {@code pid} used per request meanwhile (its background work included).
     */
    private static Latencies reads(int n, Supplier<String> url, long pid) throws Exception {
        for (int i = 0; i < 3; i++) {
            get(url.get(), 200);
        }
        Latencies out = new Latencies(new long[n]);
        Duration cpu0 = ProcessStats.cpu(pid);
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            out.bytes = get(url.get(), 200).length;
            out.nanos[i] = System.nanoTime() - t0;
        }
        out.cpuMs = ProcessStats.cpu(pid).minus(cpu0).toNanos() / 1e6 / n;
        return out;
    }

    /** Request times in nanoseconds. */
    private static final class Latencies {
        final long[] nanos;
        int bytes;
        double cpuMs;

        Latencies(long[] nanos) {
            this.nanos = nanos;
        }

        /** The {@code p} quantile in milliseconds, nearest rank. */
        double percentile(double p) {
            long[] sorted = nanos.clone();
            Arrays.sort(sorted);
            int rank = (int) Math.ceil(p * sorted.length);
            return sorted[Math.max(0, rank - 1)] / 1e6;
        }
    }

    /**
     * Waits until the grants are as of {@code lastEvent} and nothing moves any more (ETag and rebuild count unchanged
     * over 5 s, longer than the live ledger's 1 s tick); returns the ETag.
     */
    private static String awaitSettled(String grants, String management, Instant lastEvent) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(60).toNanos();
        String previous = "";
        while (System.nanoTime() < deadline) {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(grants)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 200 && !Instant.parse(JSON.readTree(r.body()).path("asOf").asText()).isBefore(
                    lastEvent)) {
                String state = r.headers().firstValue("etag").orElse("") + " "
                        + metric(management, "fairledger_live_rebuilds_total");
                if (state.equals(previous)) {
                    return r.headers().firstValue("etag").orElseThrow();
                }
                previous = state;
                Thread.sleep(5_000);
            } else {
                Thread.sleep(1_000);
            }
        }
        throw new IllegalStateException("the live ledger did not reach " + lastEvent + " within 60 minutes");
    }

    /** Waits until {@code url} answers {@code status}; returns when it first answered anything (seconds, nanoTime). */
    private static double awaitStatus(String url, int status, Process server) {
        return Processes.awaitHttp("the server", url, status, server, PATIENCE, "the server's log") / 1e9;
    }

    private void figure(String what, String measured, String goal, Boolean met) {
        String line = "%-58s %-22s %-14s %s".formatted(what, measured, goal, met == null ? "" : met ? "PASS" : "MISS");
        System.out.println(line);
        summary.add(line);
    }

    private static void resident(String when, long pid) throws IOException {
        System.out.printf("server %s: %s, %s; load average %s%n", when, ProcessStats.status(pid, "VmRSS"),
                ProcessStats.status(pid, "VmHWM"), ProcessStats.loadAverage());
    }

    /**
     * The ledger settings: {@code tenants} queues of weights 1-3 ({@code root.q0} weighing {@code q0Weight} when it is
     * not negative; no tenant list when {@code tenants} is 0), capacity for 1.2 times the containers running on average, daily periods, the default lateness
     * (1 hour) and memory (ROUNDS of 24 h), USAGE at {@code perVcoreHour}.
     */
    private static String settings(HistoryWorkload workload, int tenants, String perVcoreHour, int q0Weight) {
        StringBuilder list = new StringBuilder();
        for (int q = 0; q < tenants; q++) {
            int weight = q == 0 && q0Weight >= 0 ? q0Weight : 1 + q % 3;
            list.append(q == 0 ? "" : ",").append("{\"path\":\"root.q%d\",\"weight\":%d}".formatted(q, weight));
        }
        double running = Math.max(4, workload.meanRunning() * 1.2);
        return """
                {"registeredAt":"%s","capacity":{"vcores":%d,"memoryMb":%d,"gpus":0},"period":{"length":"P1D"},
                 "chargeback":%s%s}""".formatted(START, (long) Math.ceil(running * 2.5),
                (long) Math.ceil(running * 4.5 * 1024), chargeback(perVcoreHour),
                tenants == 0 ? "" : ",\"tenants\":[" + list + "]");
    }

    private static String chargeback(String perVcoreHour) {
        return ("{\"model\":\"USAGE\",\"plans\":[{\"name\":\"std\",\"perVcoreHour\":\"%s\",\"perGbHour\":\"0.005\","
                + "\"perGpuHour\":\"1\"}]}").formatted(perVcoreHour);
    }

    private static long count(RealDependency.Running postgres, String sql) throws Exception {
        try (Connection db = CommittedOffsets.connect(postgres);
                Statement st = db.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** A line of {@code fairledger_live_tick_seconds}: count or sum, phase, value. */
    private static final Pattern TICK_PHASE = Pattern
            .compile("^fairledger_live_tick_seconds_(count|sum)\\{.*phase=\"([a-z]+)\".*\\} (\\S+)$");

    /**
     * The live ledgers' tick so far per phase ({@code fairledger_live_tick_seconds}): phase to {count, sum of seconds}.
     */
    private static Map<String, double[]> tickPhases(String management) throws Exception {
        Map<String, double[]> out = new TreeMap<>();
        new String(get(management + "/q/metrics", 200), StandardCharsets.UTF_8).lines().forEach(l -> {
            Matcher m = TICK_PHASE.matcher(l);
            if (m.matches()) {
                out.computeIfAbsent(m.group(2), k -> new double[2])[m.group(1).equals("count") ? 0 : 1] = Double
                        .parseDouble(m.group(3));
            }
        });
        return out;
    }

    /** What {@link #tickPhases} grew by from {@code before} to {@code after}, one phase after another. */
    private static String phasesSince(Map<String, double[]> before, Map<String, double[]> after) {
        StringBuilder out = new StringBuilder();
        after.forEach((phase, now) -> {
            double[] then = before.getOrDefault(phase, new double[2]);
            out.append("%s %.0f, %.3f s; ".formatted(phase, now[0] - then[0], now[1] - then[1]));
        });
        return out.toString();
    }

    /** A metric's line of the server's Prometheus page, or "name ?" without it. */
    private static String metric(String management, String name) throws Exception {
        return new String(get(management + "/q/metrics", 200), StandardCharsets.UTF_8).lines()
                .filter(l -> l.startsWith(name)).findFirst().orElse(name + " ?");
    }

    private static byte[] get(String url, int status) throws Exception {
        HttpResponse<byte[]> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(PATIENCE).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        if (r.statusCode() != status) {
            throw new IllegalStateException("GET " + url + " answered " + r.statusCode() + ": "
                    + new String(r.body(), StandardCharsets.UTF_8));
        }
        return r.body();
    }

    private static void send(String method, String url, String json, int status) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(PATIENCE)
                .header("content-type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(json))
                .build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != status) {
            throw new IllegalStateException(method + " " + url + " answered " + r.statusCode() + ": " + r.body());
        }
    }
}
