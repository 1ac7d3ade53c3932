package io.fairledger.perf.memory;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import io.fairledger.perf.PackagedServer;
import io.fairledger.perf.ProcessStats;
import io.fairledger.testsupport.EventPublisher;

/**
 * Load tool for the packaged server's resident memory (issue #15, memory; goal <= 600 MB with 10,000 tenants and
 * 100,000 running tasks): starts the server against a real PostgreSQL and Kafka broker, registers one cluster with T
 * tenants (daily periods), feeds N YARN containers through Kafka (ALLOCATED and RUNNING, none finished, all within the
 * first period) and prints the server's resident memory (VmRSS, VmHWM of /proc/PID/status) and live heap
 * ({@code jcmd GC.class_histogram}, which collects first) idle, with that state, and after one read each of grants,
 * fairness and statements; then the histogram's top entries and, when the server runs with
 * {@code -XX:NativeMemoryTracking=summary}, what the JVM has committed by area. Arguments: tenants, tasks, seconds to
 * wait after the feed before measuring. The server runs with the JVM options of {@code BENCH_SERVER_JVM_OPTS}: pass
 * the launcher's defaults to measure what {@code ./fairledger serve} runs. Asserts nothing; docs/benchmarks.md has the
 * results.
 *
 * <pre>
 * ./mvnw -B -Pstandalone -DskipTests package
 * BENCH_SERVER_JVM_OPTS="-Xmx512m -XX:+UseG1GC -XX:G1PeriodicGCInterval=15000 -XX:MinHeapFreeRatio=20 \
 *     -XX:MaxHeapFreeRatio=40 -XX:NativeMemoryTracking=summary" ./mvnw -B -Pbench test-compile exec:exec \
 *     -Dbench.main=io.fairledger.perf.memory.ServerMemory -Dbench="10000 100000 45"
 * </pre>
 */
public final class ServerMemory {

    static final String CLUSTER = "bench-memory";
    private static final Instant START = Instant.parse("2026-11-01T00:00:00Z");
    /** The histogram's header lines and its top entries. */
    private static final int HISTOGRAM_LINES = 3 + 15;

    /**
     * HTTP/1.1, as in the other load tools: with the JDK client's upgrade to HTTP/2 over plain text, reading the 3 MB
     * metrics page failed with "Frame type(34) length(3026988) exceeds MAX_FRAME_SIZE" (text read as a frame header).
     */
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private ServerMemory() {
    }

    public static void main(String[] args) throws Exception {
        int tenants = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int tasks = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
        int settleSeconds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        Path jar = Stream.of("target/standalone-app", "target/quarkus-app").map(d -> Path.of(d, "quarkus-run.jar"))
                .filter(Files::isRegularFile).findFirst().orElseThrow(() -> new IllegalStateException(
                        "package the server first: ./mvnw -B -Pstandalone -DskipTests package"));
        try (PackagedServer server = PackagedServer.start(jar, Duration.ofMinutes(3))) {
            String base = server.base();
            String management = server.management();
            report("idle, no cluster", server.pid(), false);

            loadRunningTasks(base, management, server.bootstrap(), tenants, tasks);
            Thread.sleep(settleSeconds * 1_000L);
            report("%,d tenants, %,d running tasks".formatted(tenants, tasks), server.pid(), false);

            String cluster = base + "/api/v1/clusters/" + CLUSTER;
            for (String read : List.of(cluster + "/grants", cluster + "/fairness",
                    base + "/api/v1/admin/clusters/" + CLUSTER + "/statements")) {
                long t0 = System.nanoTime();
                HttpResponse<String> r = get(read);
                System.out.printf("GET %s: %d, %,d bytes, %,d ms%n", read.substring(base.length()),
                        r.statusCode(), r.body().length(), (System.nanoTime() - t0) / 1_000_000);
            }
            report("after one read each", server.pid(), true);
            System.out.printf("load average: %s%n", ProcessStats.loadAverage());
        }
    }

    /**
     * Registers cluster {@value #CLUSTER} with {@code tenants} queues (daily periods) on the server at {@code base}, feeds
     * {@code tasks} YARN containers through Kafka (ALLOCATED and RUNNING, none finished, all in the first period) and
     * waits until the server has accepted them all (its ingest counter on {@code management}); prints how long each step
     * took. Also the last part of {@code HistoryScale}.
     */
    public static void loadRunningTasks(String base, String management, String bootstrap, int tenants, int tasks)
            throws Exception {
        send("POST", base + "/api/v1/admin/clusters", "{\"id\":\"" + CLUSTER + "\",\"resourceManager\":\"YARN\"}");
        long t0 = System.nanoTime();
        send("PUT", base + "/api/v1/admin/clusters/" + CLUSTER + "/ledger-settings", settings(tenants));
        System.out.printf("settings with %,d tenants stored in %,d ms%n", tenants,
                (System.nanoTime() - t0) / 1_000_000);
        List<String> lines = lines(tasks, tenants);
        t0 = System.nanoTime();
        EventPublisher.publishYarn(bootstrap, CLUSTER, lines);
        awaitIngested(management + "/q/metrics", lines.size());
        System.out.printf("%,d events (%,d running containers) ingested in %,d ms%n", lines.size(), tasks,
                (System.nanoTime() - t0) / 1_000_000);
    }

    /** The server's resident memory and live heap now; with {@code histogram}, the top of the class histogram. */
    private static void report(String when, long pid, boolean histogram) throws IOException, InterruptedException {
        // resident memory first: the histogram's full collection may give heap back to the system
        String resident = ProcessStats.status(pid, "VmRSS") + ", " + ProcessStats.status(pid, "VmHWM");
        List<String> classes = jcmd(pid, "GC.class_histogram");
        String total = classes.stream().filter(l -> l.startsWith("Total")).findFirst().orElse("Total ? ?");
        long liveBytes = Long.parseLong(total.trim().split("\\s+")[2]);
        System.out.printf("%s: %s, live heap %,d KB%n", when, resident, liveBytes >> 10);
        if (histogram) {
            classes.stream().limit(HISTOGRAM_LINES).forEach(System.out::println);
            // with -XX:NativeMemoryTracking=summary: what the JVM has committed, by area
            List<String> areas = jcmd(pid, "VM.native_memory summary");
            areas.stream().filter(l -> l.startsWith("Total:") || l.trim().startsWith("-") && l.contains("committed="))
                    .map(l -> l.trim().replaceAll("\\s+", " ")).forEach(System.out::println);
        }
    }

    private static List<String> jcmd(long pid, String command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid), command).redirectErrorStream(true).start();
        List<String> out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("jcmd " + command + " failed: " + out);
        }
        if (out.size() < 2) {
            return List.of();
        }
        return out.subList(1, out.size()); // without the "PID:" line
    }

    /** The settings: {@code tenants} queues {@code root.q<i>}, daily periods, room for every container. */
    static String settings(int tenants) {
        StringBuilder list = new StringBuilder();
        for (int q = 0; q < tenants; q++) {
            list.append(q == 0 ? "" : ",").append("{\"path\":\"root.q%d\",\"weight\":%d}".formatted(q, 1 + q % 3));
        }
        return """
                {"registeredAt":"%s","capacity":{"vcores":400000,"memoryMb":1638400000,"gpus":0},
                 "memory":{"mode":"FULL"},"period":{"length":"P1D"},
                 "chargeback":{"model":"USAGE","plans":[{"name":"std","perVcoreHour":"0.04","perGbHour":"0.005",
                 "perGpuHour":"1"}]},
                 "tenants":[%s]}""".formatted(START, list);
    }

    /** The latest fact's instant among {@link #lines}: the last container's allocation (its start). */
    static Instant lastStart(int tasks) {
        return START.plusMillis(1_000 + 40L * (tasks - 1));
    }

    /** ALLOCATED and RUNNING of {@code tasks} containers, 40 ms apart (about an hour in all), none finishing. */
    private static List<String> lines(int tasks, int tenants) {
        return lines(0, tasks, tenants);
    }

    /**
     * ALLOCATED and RUNNING of the containers numbered {@code from} to {@code to} (exclusive), each 40 ms after the one
     * numbered before it ({@link #lastStart} of the last), none finishing.
     */
    static List<String> lines(int from, int to, int tenants) {
        Random random = new Random(15 + from);
        List<String> lines = new ArrayList<>((to - from) * 2);
        for (int i = from; i < to; i++) {
            long t = START.toEpochMilli() + 1_000 + 40L * i;
            String container = "container_1795251600000_%04d_01_%06d".formatted(i / 100, i);
            String common = ("\"cluster\":\"%s\",\"applicationId\":\"application_1795251600000_%04d\","
                    + "\"attemptId\":\"appattempt_1795251600000_%<04d_000001\",\"containerId\":\"%s\","
                    + "\"queue\":\"root.q%d\",\"user\":\"u%d\",\"allocatedMemoryMb\":%d,\"allocatedVcores\":%d,"
                    + "\"node\":\"node-%d:8041\",\"createdTime\":%d").formatted(CLUSTER, i / 100, container,
                            random.nextInt(tenants), i % 7, 1024L * (1 + random.nextInt(8)), 1 + random.nextInt(4),
                            i % 500, t);
            lines.add(line(container + "-a", t, "ALLOCATED", common, ""));
            lines.add(line(container + "-r", t + 20, "RUNNING", common, ",\"startedTime\":" + (t + 20)));
        }
        return lines;
    }

    private static String line(String eventId, long at, String state, String common, String extra) {
        return "{\"type\":\"YarnContainerEvent\",\"eventId\":\"%s\",\"eventTime\":%d,\"state\":\"%s\",%s%s}"
                .formatted(eventId, at, state, common, extra);
    }

    /** Waits until the server has accepted {@code events} YARN events (its ingest counter). */
    private static void awaitIngested(String metricsUrl, int events) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        while (System.nanoTime() < deadline) {
            long accepted = get(metricsUrl).body().lines()
                    .filter(l -> l.startsWith("fairledger_ingest_events_total") && l.contains("yarn.containers"))
                    .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
            if (accepted >= events) {
                return;
            }
            Thread.sleep(1_000);
        }
        throw new IllegalStateException("the server did not ingest " + events + " events within 10 minutes");
    }

    static HttpResponse<String> get(String url) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static void send(String method, String url, String json) throws IOException, InterruptedException {
        sent(method, url, json);
    }

    /** {@link #send}, with the answer. */
    static HttpResponse<String> sent(String method, String url, String json) throws IOException,
            InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url))
                .header("content-type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300) {
            throw new IllegalStateException(url + " answered " + response.statusCode() + ": " + response.body());
        }
        return response;
    }
}
