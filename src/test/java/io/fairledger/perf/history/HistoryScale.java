package io.fairledger.perf.history;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import io.fairledger.core.replay.Checkpoint;
import io.fairledger.ingest.schema.EventDecoder;
import io.fairledger.ingest.schema.EventTopics;
import io.fairledger.perf.CommittedOffsets;
import io.fairledger.perf.KafkaReadRate;
import io.fairledger.perf.PackagedServer;
import io.fairledger.perf.ProcessStats;
import io.fairledger.perf.memory.ServerMemory;
import io.fairledger.testsupport.EventPublisher;
import io.fairledger.testsupport.Processes;
import io.fairledger.testsupport.RealDependency;

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
    /** A late event's delay before the latest event (issue #15: late by up to a day). */
    private static final Duration LATE_BY = Duration.ofHours(20);
    private static final String TICK_ALLOCATED = "fairledger_live_tick_allocated_bytes_total";
    private static final String LIVE_FACTS = "fairledger_live_facts_total";
    private static final String STATED = "fairledger_closing_statements_total";

    private final List<String> summary = new ArrayList<>();
    /** The ingest's rate, compared with {@link CopyCeiling}'s at the end of the history. */
    private double factsPerSecond;

    private HistoryScale() {
    }

    public static void main(String[] args) throws Exception {
        HistoryOptions options = HistoryOptions.parse(args);
        Path jar = PackagedServer.jar();
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
    private void history(Path jar, HistoryOptions o) throws Exception {
        HistoryWorkload workload = new HistoryWorkload(CLUSTER, START, o.facts(), o.days(), o.tenants(), o.late(),
                o.seed());
        long events = o.facts() / 2 * 2;
        try (PackagedServer server = PackagedServer.start(jar, Duration.ofMinutes(3))) {
            RealDependency.Running postgres = server.postgres();
            String bootstrap = server.bootstrap();
            String base = server.base();
            String management = server.management();
            ServerHttp.send("POST", base + "/api/v1/admin/clusters",
                    "{\"id\":\"" + CLUSTER + "\",\"resourceManager\":\"YARN\"}", 201);
            String settings = workload.settings(o.tenants(), "0.04", -1);
            ServerHttp.send("PUT", base + "/api/v1/admin/clusters/" + CLUSTER + "/ledger-settings", settings, 200);

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
            double allocatedBefore = ServerHttp.sum(management, TICK_ALLOCATED, "");
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
            String etag = ServerHttp.awaitSettled(grants, management, lastEvent);
            System.out.printf("live ledger at the latest event and settled %.1f s after the last commit%n",
                    (System.nanoTime() - ingested) / 1e9);
            double settledCpuUs = ProcessStats.cpu(server.pid()).minus(serverCpuBefore).toNanos() / 1e3
                    / history.events();
            double tickAllocated = ServerHttp.sum(management, TICK_ALLOCATED, "") - allocatedBefore;
            double fromMemory = ServerHttp.sum(management, LIVE_FACTS, "origin=\"memory\"");
            double read = ServerHttp.sum(management, LIVE_FACTS, "origin=\"database\"");
            long facts = count(postgres, "SELECT count(*) FROM ledger_fact WHERE cluster_id = '" + CLUSTER + "'");
            long closed = count(postgres,
                    "SELECT count(*) FROM closed_statement WHERE cluster_id = '" + CLUSTER + "'");
            System.out.printf("%,d facts stored (%.2f per event), %,d closed statements; %s%n", facts,
                    facts / (double) history.events(), closed,
                    ServerHttp.metric(management, "fairledger_live_rebuilds_total"));
            System.out.printf("closing statements from the live ledger %.0f, replayed %.0f; tick by phase: %s%n",
                    ServerHttp.sum(management, STATED, "held"), ServerHttp.sum(management, STATED, "replayed"),
                    ServerHttp.phasesSince(Map.of(), ServerHttp.tickPhases(management)));
            double kafkaOwn = KafkaReadRate.recordsPerSecond(bootstrap, EventTopics.YARN_CONTAINERS, events);
            figure("facts stored (goal: at least 10,000,000)", "%,d".formatted(facts), ">= 10,000,000",
                    facts >= 10_000_000);
            factsPerSecond = eventsPerSecond * facts / history.events();
            figure("ingest, topic to committed ledger (ConsumerPerformance %,.0f ev/s)".formatted(kafkaOwn),
                    "%,.0f facts/s".formatted(factsPerSecond), "", null);
            figure("server CPU per event, ingest until the live ledger settled", "%.1f us".formatted(settledCpuUs),
                    "<= 12 us", settledCpuUs <= 12);
            figure("live tick allocation per fact (%,.0f from memory, %,.0f read back)".formatted(fromMemory, read),
                    "%,.0f bytes".formatted(tickAllocated / facts), "<= 1,024 bytes", tickAllocated / facts <= 1024);
            resident("after ingest", server.pid());

            Random random = new Random(o.seed());
            String statementsUrl = base + "/api/v1/admin/clusters/" + CLUSTER + "/statements";
            Map<String, Long> states = new TreeMap<>();
            ServerHttp.JSON.readTree(ServerHttp.get(statementsUrl, 200))
                    .forEach(s -> states.merge(s.path("state").asText(), 1L,
                            Long::sum));
            System.out.printf("statements by state: %s%n", states);
            Latencies statements = Latencies.of(o.requests(), () -> statementsUrl, server.pid());
            figure("statements p99 (%d requests, %,d bytes, p50 %.0f ms, server CPU %.1f ms each)".formatted(
                    o.requests(), statements.bytes, statements.percentile(0.5), statements.cpuMs),
                    "%.0f ms".formatted(statements.percentile(0.99)),
                    "<= 100 ms", statements.percentile(0.99) <= 100);
            Latencies fairness = Latencies.of(o.requests(),
                    () -> base + "/api/v1/clusters/" + CLUSTER + "/tenants/root.q"
                            + random.nextInt(o.tenants()) + "/fairness",
                    server.pid());
            figure("tenant fairness p99 (%d requests, p50 %.0f ms, server CPU %.1f ms each)".formatted(
                    o.requests(), fairness.percentile(0.5), fairness.cpuMs),
                    "%.0f ms".formatted(fairness.percentile(0.99)), "<= 50 ms",
                    fairness.percentile(0.99) <= 50);
            Latencies bill = Latencies.of(o.requests(), () -> base + "/api/v1/clusters/" + CLUSTER + "/tenants/root.q"
                    + random.nextInt(o.tenants()) + "/statements", server.pid());
            figure("tenant statements p99 (%d requests, %,d bytes, p50 %.0f ms, server CPU %.1f ms each)"
                    .formatted(o.requests(), bill.bytes, bill.percentile(0.5), bill.cpuMs),
                    "%.0f ms".formatted(bill.percentile(0.99)), "", null);

            Map<String, double[]> beforeLate = ServerHttp.tickPhases(management);
            lateFact(bootstrap, postgres, base, grants, etag, lastEvent);
            // the tick that applied it may still be closing periods: let it end
            Thread.sleep(3_000);
            System.out.println("live tick phases during the late fact (ticks, seconds): "
                    + ServerHttp.phasesSince(beforeLate, ServerHttp.tickPhases(management)));

            Instant day = START.plus(Duration.ofDays(o.days() - 2));
            // a price variant without tenants (the live tree), a weight variant with every tenant, root.q0 at 5
            whatIf(base, day, workload.settings(0, "0.05", -1), "price change", 2);
            whatIf(base, day, workload.settings(o.tenants(), "0.04", 5), "weight change", 10);

            System.out.printf("checkpoints stored: %,d, %,d of them labelled with a period, %,d bytes each on "
                    + "average, %,d bytes in all (state)%n",
                    count(postgres, "SELECT count(*) FROM ledger_checkpoint"),
                    count(postgres, "SELECT count(*) FROM ledger_checkpoint WHERE open_period IS NOT NULL"),
                    count(postgres, "SELECT coalesce(avg(octet_length(state)), 0)::bigint FROM ledger_checkpoint"),
                    count(postgres, "SELECT coalesce(sum(octet_length(state)), 0) FROM ledger_checkpoint"));
            System.out.println("closed periods' statements each checkpoint carries, oldest first: "
                    + statementsCarried(postgres));
            resident("after those requests", server.pid());
            double rss = ProcessStats.megabytes(server.pid(), "VmRSS");
            figure("server resident memory after the requests (peak %.0f MB)".formatted(
                    ProcessStats.megabytes(server.pid(), "VmHWM")), "%.0f MB".formatted(rss), "<= 1024 MB",
                    rss <= 1024);

            long stopping = System.nanoTime();
            server.stop();
            System.out.printf("server stopped in %.1f s (SIGTERM)%n", (System.nanoTime() - stopping) / 1e9);
            server.launch();
            double listening = awaitStatus(grants, 200, server.process()) - server.launchedAt() / 1e9;
            double restart = (System.nanoTime() - server.launchedAt()) / 1e9;
            System.out.printf("restarted: HTTP answering after %.1f s, grants 200 after %.1f s%n", listening,
                    restart);
            figure("restart (process start) to grants 200", "%.1f s".formatted(restart), "<= 10 s",
                    restart <= 10);
            resident("after the restart, grants answered", server.pid());

            // PostgreSQL's own ceiling: the same history under a cluster of its own, into the same table
            try (Connection c = CommittedOffsets.connect(postgres)) {
                CopyCeiling.Rate ceiling = CopyCeiling.copyAlone(c, new HistoryWorkload(CLUSTER + "-ceiling", START,
                        o.facts(), o.days(), o.tenants(), o.late(), o.seed()));
                ceiling.print("CopyCeiling, COPY alone (server idle)");
                figure("ingest ratio to CopyCeiling (%,.0f/%,.0f facts/s)".formatted(factsPerSecond,
                        ceiling.perSecond()), "%.2f".formatted(factsPerSecond / ceiling.perSecond()), ">= 0.8",
                        factsPerSecond / ceiling.perSecond() >= 0.8);
            }
        }
    }

    /** The memory part: a fresh broker, database and server with many tenants and running tasks. */
    private void runningTasks(Path jar, HistoryOptions o) throws Exception {
        try (PackagedServer server = PackagedServer.start(jar, Duration.ofMinutes(3))) {
            ServerMemory.loadRunningTasks(server.base(), server.management(), server.bootstrap(), o.memoryTenants(),
                    o.memoryTasks());
            // as ServerMemory measures it: the server gives the heap back 10 s after the feed (QuietHeapTrim)
            Thread.sleep(45_000);
            double rss = ProcessStats.megabytes(server.pid(), "VmRSS");
            figure("resident memory, %,d tenants, %,d running tasks (peak %.0f MB)".formatted(o.memoryTenants(),
                    o.memoryTasks(), ProcessStats.megabytes(server.pid(), "VmHWM")), "%.0f MB".formatted(rss),
                    "<= 600 MB", rss <= 600);
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
        long deadline = sent + ServerHttp.PATIENCE.toNanos();
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
            if (Double.isNaN(grantsSeconds) && ServerHttp.HTTP.send(HttpRequest.newBuilder(URI.create(grants))
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
                ? "> " + ServerHttp.PATIENCE
                : "%.2f s".formatted(grantsSeconds), "<= 2 s", grantsSeconds <= 2);
    }

    private static int runningTasks(String tenantUrl) throws Exception {
        return ServerHttp.JSON.readTree(ServerHttp.get(tenantUrl, 200)).path("now").path("runningTasks").asInt(-1);
    }

    /** A what-if over the closed day from {@code day} with {@code settings}; prints where it started. */
    private void whatIf(String base, Instant day, String settings, String change, double goalSeconds)
            throws Exception {
        String body = "{\"from\":\"%s\",\"until\":\"%s\",\"settings\":%s}".formatted(day, day.plus(Duration.ofDays(1)),
                settings);
        long t0 = System.nanoTime();
        HttpResponse<String> r = ServerHttp.HTTP.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/admin/clusters/"
                + CLUSTER + "/what-if")).timeout(ServerHttp.PATIENCE).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        double seconds = (System.nanoTime() - t0) / 1e9;
        String how;
        if (r.statusCode() == 200) {
            JsonNode answer = ServerHttp.JSON.readTree(r.body());
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

    /** Waits until {@code url} answers {@code status}; returns when it first answered anything (seconds, nanoTime). */
    private static double awaitStatus(String url, int status, Process server) {
        return Processes.awaitHttp("the server", url, status, server, ServerHttp.PATIENCE, "the server's log") / 1e9;
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

    private static long count(RealDependency.Running postgres, String sql) throws Exception {
        try (Connection db = CommittedOffsets.connect(postgres);
                Statement st = db.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** How many closed periods' statements each stored checkpoint carries, in event-time order. */
    private static List<Integer> statementsCarried(RealDependency.Running postgres) throws Exception {
        List<Integer> out = new ArrayList<>();
        try (Connection db = CommittedOffsets.connect(postgres);
                Statement st = db.createStatement();
                ResultSet rs = st.executeQuery("SELECT state FROM ledger_checkpoint ORDER BY event_time_ms")) {
            while (rs.next()) {
                out.add(Checkpoint.statementsCarried(rs.getBytes(1)));
            }
        }
        return out;
    }
}
