package io.fairledger.perf.http;

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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.fairledger.perf.PackagedServer;
import io.fairledger.testsupport.DebianTool;
import io.fairledger.testsupport.EventPublisher;
import io.fairledger.testsupport.YarnWorkload;

/**
 * Load tool for grant queries (issue #6): the packaged server with 1,000 tenants fed through Kafka, then wrk on
 * loopback: grants at a paced 5,000 requests/s (p50, p99; also with If-None-Match, and a trivial endpoint the same way),
 * and the unpaced throughput of grants against a trivial endpoint of the same server ({@code /q/health/live}, on the management interface: another port of the same Vert.x event loops). Prints
 * the figures; asserts nothing. docs/benchmarks.md has the results.
 *
 * <pre>
 * ./mvnw -B package -DskipTests
 * flock /tmp/bench.lock ./mvnw -B -Pbench test-compile exec:exec -Dbench.main=io.fairledger.perf.http.GrantQueryLoad
 * </pre>
 *
 * {@code BENCH_SERVER_JAR} runs another build of the server, as for the other load tools ({@link PackagedServer#jar}).
 */
public final class GrantQueryLoad {

    private static final int TENANTS = 1_000;
    private static final int CONTAINERS = 30_000;
    private static final String CLUSTER = "bench-grants";
    private static final Instant START = Instant.parse("2026-11-22T00:00:00Z");
    private static final String GRANTS_TEMPLATE = "/api/v1/clusters/{clusterId}/grants";

    /** The paced runs: this many requests per second in all, from this many connections and wrk threads. */
    private static final int RATE = 5_000;
    private static final int CONNECTIONS = 50;
    private static final int WRK_THREADS = 2;

    /**
     * wrk's {@code delay()} waits a fixed time after each response, so the rate it offers falls with the latency. This
     * script keeps each wrk thread on a fixed schedule instead (a monotonic clock through LuaJIT's FFI): every response
     * takes the thread's next slot, {@code 1000 / rate} ms after the previous one. When no connection is free at a
     * slot, the schedule restarts from now (no burst to catch up) and the achieved rate, printed, falls short.
     */
    private static final String PACE = """
            local ffi = require("ffi")
            ffi.cdef [[
            typedef struct { long tv_sec; long tv_nsec; } pace_timespec;
            int clock_gettime(int clock, pace_timespec *t);
            ]]
            local t = ffi.new("pace_timespec")
            local function now()
              ffi.C.clock_gettime(1, t) -- CLOCK_MONOTONIC
              return tonumber(t.tv_sec) * 1000 + tonumber(t.tv_nsec) / 1e6
            end
            local interval, slot
            function init(args) interval = 1000 / tonumber(args[1]) end
            function delay()
              local at = now()
              slot = math.max((slot or at) + interval, at)
              return slot - at
            end
            """;

    public static void main(String[] args) throws Exception {
        Path jar = PackagedServer.jar();
        String wrk = DebianTool.path("wrk", "wrk");
        try (PackagedServer server = PackagedServer.start(jar, Duration.ofMinutes(3))) {
            String bootstrap = server.bootstrap();
            String base = server.base();
            String management = server.management();
            send("POST", base + "/api/v1/admin/clusters",
                    "{\"id\":\"" + CLUSTER + "\",\"resourceManager\":\"YARN\"}");
            send("PUT", base + "/api/v1/admin/clusters/" + CLUSTER + "/ledger-settings",
                    YarnWorkload.settings(START, TENANTS).replace("\"vcores\":200", "\"vcores\":2000"));
            List<String> lines = YarnWorkload.lines(CLUSTER, START, CONTAINERS, TENANTS, 1);
            EventPublisher.publishYarn(bootstrap, CLUSTER, lines);
            String grants = base + "/api/v1/clusters/" + CLUSTER + "/grants";
            int size = awaitGrants(grants, management + "/q/metrics", lines.size());
            System.out.printf("grants body: %d bytes, %d tenants, %d events%n", size, TENANTS, lines.size());
            // for runs by hand: BENCH_HOLD_FILE=/tmp/hold keeps the server up while that file exists
            String hold = System.getenv("BENCH_HOLD_FILE");
            if (hold != null) {
                System.out.println("holding the server at " + base + " (pid " + server.pid() + ") while " + hold
                        + " exists");
                while (Files.exists(Path.of(hold))) {
                    Thread.sleep(1_000);
                }
                return;
            }
            Path pace = Files.createTempFile("wrk-pace", ".lua");
            Files.writeString(pace, PACE);
            String gzip = "Accept-Encoding: gzip";
            String live = management + "/q/health/live";
            String etag = etag(grants);
            // warm-up, long enough for C2 to compile every path measured (a 200, a 304, the trivial endpoint),
            // so that no run pays for the compilation of its own path: unpaced, then the grants paced
            run(wrk, "-t2", "-c16", "-d30s", "-H", gzip, grants);
            run(wrk, "-t2", "-c16", "-d20s", "-H", gzip, "-H", "If-None-Match: " + etag, grants);
            run(wrk, "-t2", "-c16", "-d20s", live);
            run(wrk, paced(pace, "-H", gzip, grants));
            double[] before = serverTime(management, GRANTS_TEMPLATE);
            Wrk paced = run(wrk, paced(pace, "-H", gzip, grants));
            double[] after = serverTime(management, GRANTS_TEMPLATE);
            Wrk notModified = run(wrk, paced(pace, "-H", gzip, "-H", "If-None-Match: " + etag, grants));
            Wrk pacedTrivial = run(wrk, paced(pace, live));
            Wrk grantMax = run(wrk, "-t2", "-c16", "-d20s", "--latency", "-H", gzip, grants);
            Wrk grantPlainMax = run(wrk, "-t2", "-c16", "-d20s", "--latency", grants);
            Wrk trivialMax = run(wrk, "-t2", "-c16", "-d20s", "--latency", "-H", gzip, live);
            System.out.printf("%ngrants paced at %,d/s (%d connections, %d wrk thread(s)), gzip: %.0f req/s, "
                    + "p50 %.3f ms, p99 %.3f ms (goal p99 <= 2 ms); server time per request (mean) %.3f ms%n",
                    RATE, CONNECTIONS, WRK_THREADS, paced.rate(), paced.p50(), paced.p99(),
                    (after[1] - before[1]) / (after[0] - before[0]) * 1000);
            System.out.printf("grants paced the same, If-None-Match (304): %.0f req/s, p50 %.3f ms, p99 %.3f ms%n",
                    notModified.rate(), notModified.p50(), notModified.p99());
            System.out.printf("/q/health/live paced the same, for scale: %.0f req/s, p50 %.3f ms, p99 %.3f ms%n",
                    pacedTrivial.rate(), pacedTrivial.p50(), pacedTrivial.p99());
            System.out.printf("unpaced: grants gzip %.0f req/s (p99 %.3f ms), grants uncompressed %.0f req/s "
                    + "(p99 %.3f ms), /q/health/live %.0f req/s (p99 %.3f ms)%n", grantMax.rate(), grantMax.p99(),
                    grantPlainMax.rate(), grantPlainMax.p99(), trivialMax.rate(), trivialMax.p99());
            System.out.printf("ratio grants / trivial: %.2f gzip, %.2f uncompressed (goal >= 0.7)%n",
                    grantMax.rate() / trivialMax.rate(), grantPlainMax.rate() / trivialMax.rate());
            System.out.printf("load average: %s%n", Files.readString(Path.of("/proc/loadavg")).trim());
        }
    }

    private record Wrk(double rate, double p50, double p99) {
    }

    /** wrk arguments for 30 s at {@link #RATE} requests/s in all, with {@code args} (headers, URL). */
    private static String[] paced(Path pace, String... args) {
        List<String> command = new ArrayList<>(List.of("-t" + WRK_THREADS, "-c" + CONNECTIONS, "-d30s", "--latency",
                "-s", pace.toString()));
        command.addAll(List.of(args));
        command.addAll(List.of("--", Integer.toString(RATE / WRK_THREADS)));
        return command.toArray(String[]::new);
    }

    /** The server's own count and total seconds of the requests to {@code template} (Micrometer, every status). */
    private static double[] serverTime(String management, String template) throws IOException, InterruptedException {
        String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(management + "/q/metrics"))
                .build(), HttpResponse.BodyHandlers.ofString()).body();
        double[] countAndSum = new double[2];
        metrics.lines().filter(l -> l.contains("uri=\"" + template + "\"")).forEach(l -> {
            double value = Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1));
            if (l.startsWith("http_server_requests_seconds_count")) {
                countAndSum[0] += value;
            } else if (l.startsWith("http_server_requests_seconds_sum")) {
                countAndSum[1] += value;
            }
        });
        return countAndSum;
    }

    private static String etag(String url) throws IOException, InterruptedException {
        // HTTP/1.1 like wrk: the JDK client's h2c upgrade of a bodiless read failed once with a frame error
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                .send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString())
                .headers().firstValue("etag").orElseThrow();
    }

    private static Wrk run(String wrk, String... args) throws IOException, InterruptedException {
        String[] command = new String[args.length + 1];
        command[0] = wrk;
        System.arraycopy(args, 0, command, 1, args.length);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0 || out.contains("Non-2xx")) {
            throw new IllegalStateException("wrk failed or saw errors:\n" + out);
        }
        System.out.println(String.join(" ", args) + "\n" + out);
        return new Wrk(number(out, "Requests/sec:\\s+([0-9.]+)"), millis(out, "50%"), millis(out, "99%"));
    }

    private static double millis(String out, String percentile) {
        Matcher m = Pattern.compile(percentile + "\\s+([0-9.]+)(us|ms|s)").matcher(out);
        if (!m.find()) {
            return Double.NaN;
        }
        double v = Double.parseDouble(m.group(1));
        return switch (m.group(2)) {
            case "us" -> v / 1000;
            case "s" -> v * 1000;
            default -> v;
        };
    }

    private static double number(String out, String regex) {
        Matcher m = Pattern.compile(regex).matcher(out);
        if (!m.find()) {
            throw new IllegalStateException("unexpected wrk output:\n" + out);
        }
        return Double.parseDouble(m.group(1));
    }

    /** Waits until the grants reflect every event; returns the body's size. */
    private static int awaitGrants(String url, String metricsUrl, int events) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        HttpClient http = HttpClient.newHttpClient();
        while (System.nanoTime() < deadline) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 200 && r.body().contains("\"parent\":\"root\"")) {
                HttpResponse<String> metrics = http.send(HttpRequest.newBuilder(URI.create(metricsUrl)).build(),
                        HttpResponse.BodyHandlers.ofString());
                long accepted = metrics.body().lines()
                        .filter(l -> l.startsWith("fairledger_ingest_events_total") && l.contains("yarn.containers"))
                        .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
                if (accepted >= events) {
                    Thread.sleep(3_000);
                    return http.send(HttpRequest.newBuilder(URI.create(url)).build(),
                            HttpResponse.BodyHandlers.ofString()).body().length();
                }
            }
            Thread.sleep(1_000);
        }
        throw new IllegalStateException("the grants did not cover every event within 5 minutes");
    }

    private static void send(String method, String url, String json) throws IOException, InterruptedException {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
                .header("content-type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300) {
            throw new IllegalStateException(url + " answered " + response.statusCode() + ": " + response.body());
        }
    }
}
