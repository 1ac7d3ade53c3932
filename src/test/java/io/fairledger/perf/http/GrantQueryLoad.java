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
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.fairledger.testsupport.DebianTool;
import io.fairledger.testsupport.EventPublisher;
import io.fairledger.testsupport.KafkaDependency;
import io.fairledger.testsupport.PostgresDependency;
import io.fairledger.testsupport.Processes;
import io.fairledger.testsupport.RealDependency;
import io.fairledger.testsupport.ServerEnvironment;
import io.fairledger.testsupport.YarnWorkload;

/**
 * Load tool for grant queries (issue #6): the packaged server with 1,000 tenants fed through Kafka, then wrk on
 * loopback: grants at a paced 5,000 requests/s (p50, p99), and the unpaced throughput of grants against a trivial
 * endpoint of the same server ({@code /q/health/live}). Prints the figures; asserts nothing.
 *
 * <pre>
 * ./mvnw -B package -DskipTests
 * ./mvnw -B -Pbench test-compile exec:exec -Dbench.main=io.fairledger.perf.http.GrantQueryLoad
 * </pre>
 */
public final class GrantQueryLoad {

    private static final int TENANTS = 1_000;
    private static final int CONTAINERS = 30_000;
    private static final String CLUSTER = "bench-grants";
    private static final Instant START = Instant.parse("2026-11-22T00:00:00Z");

    public static void main(String[] args) throws Exception {
        Path jar = Path.of("target/quarkus-app/quarkus-run.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("package the server first: ./mvnw -B package -DskipTests");
        }
        String wrk = DebianTool.path("wrk", "wrk");
        try (RealDependency.Running postgres = PostgresDependency.start();
                RealDependency.Running kafka = KafkaDependency.start()) {
            String bootstrap = kafka.config().get("kafka.bootstrap.servers");
            int port = Processes.freePort();
            ProcessBuilder server = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "-jar", jar.toString(), "serve").redirectErrorStream(true)
                    .redirectOutput(Files.createTempFile("fairledger-grants-server", ".log").toFile());
            server.environment().putAll(ServerEnvironment.of(port, postgres, kafka));
            Process process = server.start();
            try {
                String base = "http://127.0.0.1:" + port;
                Processes.awaitHttpOk("fairledger", base + "/q/health/ready", process, Duration.ofMinutes(3),
                        "the server log");
                send("POST", base + "/api/v1/admin/clusters",
                        "{\"id\":\"" + CLUSTER + "\",\"resourceManager\":\"YARN\"}");
                send("PUT", base + "/api/v1/admin/clusters/" + CLUSTER + "/ledger-settings",
                        YarnWorkload.settings(START, TENANTS).replace("\"vcores\":200", "\"vcores\":2000"));
                List<String> lines = YarnWorkload.lines(CLUSTER, START, CONTAINERS, TENANTS, 1);
                EventPublisher.publishYarn(bootstrap, CLUSTER, lines);
                String grants = base + "/api/v1/clusters/" + CLUSTER + "/grants";
                int size = awaitGrants(grants, lines.size());
                System.out.printf("grants body: %d bytes, %d tenants, %d events%n", size, TENANTS, lines.size());

                Path pace = Files.createTempFile("wrk-pace", ".lua");
                Files.writeString(pace, """
                        local per_connection
                        function init(args) per_connection = tonumber(args[1]) end
                        function delay() return 1000 / per_connection end
                        """);
                String gzip = "Accept-Encoding: gzip";
                run(wrk, "-t2", "-c16", "-d10s", "-H", gzip, grants); // warm-up
                Wrk paced = run(wrk, "-t2", "-c50", "-d30s", "--latency", "-H", gzip, "-s", pace.toString(), grants,
                        "--", "100");
                Wrk pacedPlain = run(wrk, "-t2", "-c50", "-d30s", "--latency", "-s", pace.toString(), grants, "--",
                        "100");
                Wrk pacedFew = run(wrk, "-t2", "-c10", "-d30s", "--latency", "-H", gzip, "-s", pace.toString(), grants,
                        "--", "500");
                Wrk pacedTrivial = run(wrk, "-t2", "-c50", "-d30s", "--latency", "-s", pace.toString(),
                        base + "/q/health/live", "--", "100");
                Wrk grantMax = run(wrk, "-t2", "-c16", "-d20s", "--latency", "-H", gzip, grants);
                Wrk grantPlainMax = run(wrk, "-t2", "-c16", "-d20s", "--latency", grants);
                Wrk trivialMax = run(wrk, "-t2", "-c16", "-d20s", "--latency", "-H", gzip, base + "/q/health/live");
                System.out.printf("%ngrants paced at 5,000/s (50 connections x 100/s), gzip: %.0f req/s, p50 %.3f ms, "
                        + "p99 %.3f ms (goal p99 <= 2 ms)%n", paced.rate(), paced.p50(), paced.p99());
                System.out.printf("grants paced at 5,000/s, uncompressed: %.0f req/s, p50 %.3f ms, p99 %.3f ms%n",
                        pacedPlain.rate(), pacedPlain.p50(), pacedPlain.p99());
                System.out.printf("grants paced at 5,000/s from 10 connections x 500/s, gzip: %.0f req/s, p50 %.3f ms, "
                        + "p99 %.3f ms%n", pacedFew.rate(), pacedFew.p50(), pacedFew.p99());
                System.out.printf("/q/health/live paced at 5,000/s, for scale: %.0f req/s, p50 %.3f ms, p99 %.3f ms%n",
                        pacedTrivial.rate(), pacedTrivial.p50(), pacedTrivial.p99());
                System.out.printf("unpaced: grants gzip %.0f req/s (p99 %.3f ms), grants uncompressed %.0f req/s "
                        + "(p99 %.3f ms), /q/health/live %.0f req/s (p99 %.3f ms)%n", grantMax.rate(), grantMax.p99(),
                        grantPlainMax.rate(), grantPlainMax.p99(), trivialMax.rate(), trivialMax.p99());
                System.out.printf("ratio grants / trivial: %.2f gzip, %.2f uncompressed (goal >= 0.7)%n",
                        grantMax.rate() / trivialMax.rate(), grantPlainMax.rate() / trivialMax.rate());
            } finally {
                Processes.stop(process);
            }
        }
    }

    private record Wrk(double rate, double p50, double p99) {
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
    private static int awaitGrants(String url, int events) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        HttpClient http = HttpClient.newHttpClient();
        while (System.nanoTime() < deadline) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 200 && r.body().contains("\"parent\":\"root\"")) {
                HttpResponse<String> metrics = http.send(HttpRequest.newBuilder(URI.create(url.substring(0,
                        url.indexOf("/api/")) + "/q/metrics")).build(), HttpResponse.BodyHandlers.ofString());
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
