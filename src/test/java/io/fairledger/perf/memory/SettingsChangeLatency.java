package io.fairledger.perf.memory;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.fairledger.perf.PackagedServer;
import io.fairledger.perf.ProcessStats;
import io.fairledger.testsupport.EventPublisher;

/**
 * Load tool for the cost of a settings change (issue #29 item 2; goals: a PUT of the whole ledger settings of 10,000
 * tenants within 1 s, a one-weight change within 50 ms at p99). Starts the packaged server on a real PostgreSQL and
 * Kafka, registers a cluster of T tenants and feeds N running containers ({@link ServerMemory#loadRunningTasks}, which
 * prints the first PUT, on an empty cluster), then times C PUTs of the whole settings document, each with other
 * weights for two tenants, and twice C PUTs of one tenant's weight ({@code PUT .../tenants/{path}}: the first round
 * has the JIT compiler compile their code meanwhile, the second is what a running server pays), then C more, each
 * after a new fact (so each at a new instant, adding an entry to the settings' {@code earlier}: what a change costs
 * after many made while the cluster ran; only the PUTs are timed). A PUT answers once
 * this replica's reads serve the change (docs/api.md, "Read-your-writes"), so each time is what an admin waits for.
 * Prints the 50th, 90th and 99th percentiles and the largest, with the server's CPU per change (per thread for the
 * one-weight rounds) and how many PUTs were answered before their change was served (the server's wait is bounded:
 * such a time is the bound, not the change's).
 * Arguments: tenants, containers, changes of each kind. Asserts nothing; docs/benchmarks.md has the results. A
 * profile of the server: {@code BENCH_SERVER_JVM_OPTS=-XX:StartFlightRecording=filename=/tmp/s.jfr,settings=profile}.
 *
 * <pre>
 * ./mvnw -B package -DskipTests
 * ./mvnw -B -Pbench test-compile exec:exec -Dbench.main=io.fairledger.perf.memory.SettingsChangeLatency \
 *     -Dbench="10000 10000 200"
 * </pre>
 */
public final class SettingsChangeLatency {

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private SettingsChangeLatency() {
    }

    public static void main(String[] args) throws Exception {
        int tenants = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int tasks = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        int changes = args.length > 2 ? Integer.parseInt(args[2]) : 50;
        try (PackagedServer server = PackagedServer.start(PackagedServer.jar(), Duration.ofMinutes(3))) {
            String base = server.base();
            ServerMemory.loadRunningTasks(base, server.management(), server.bootstrap(), tenants, tasks);
            awaitApplied(base, ServerMemory.lastStart(tasks));
            String admin = base + "/api/v1/admin/clusters/" + ServerMemory.CLUSTER;
            String settings = ServerMemory.settings(tenants);

            long[] whole = new long[changes];
            int unserved = 0;
            Duration cpu0 = ProcessStats.cpu(server.pid());
            for (int i = 0; i < changes; i++) {
                int q = (i * 7919) % tenants;
                String weight = "{\"path\":\"root.q%d\",\"weight\":%d}";
                String changed = settings.replace(weight.formatted(q, 1 + q % 3), weight.formatted(q, 4 + q % 3));
                long t0 = System.nanoTime();
                unserved += served(put(admin + "/ledger-settings", changed)) ? 0 : 1;
                whole[i] = System.nanoTime() - t0;
            }
            print("whole settings document, %,d tenants".formatted(tenants), whole,
                    ProcessStats.cpu(server.pid()).minus(cpu0), unserved);

            // twice: the first round after the start has the JIT compiler compile the change's code meanwhile (about
            // half the server's CPU then); the second is what a running server pays
            int firstWeight = 10;
            for (String round : List.of("first %d after the start", "%d after them")) {
                long[] one = new long[changes];
                cpu0 = ProcessStats.cpu(server.pid());
                Map<String, Long> threads0 = ProcessStats.threadCpuTicks(server.pid());
                unserved = 0;
                for (int i = 0; i < changes; i++) {
                    int q = (i * 104_729) % tenants;
                    long t0 = System.nanoTime();
                    unserved += served(putWeight(admin, q, firstWeight + i % 5)) ? 0 : 1;
                    one[i] = System.nanoTime() - t0;
                }
                firstWeight += 10;
                print("one tenant's weight, the " + round.formatted(changes), one,
                        ProcessStats.cpu(server.pid()).minus(cpu0), unserved);
                ProcessStats.printThreadCpu(threads0, ProcessStats.threadCpuTicks(server.pid()), changes, "ms per PUT");
            }
            // each change after a new fact, so at a new instant: each adds an entry to the settings' earlier
            long[] later = new long[changes];
            Duration cpu = Duration.ZERO;
            Map<String, Long> threadsBefore = new TreeMap<>();
            Map<String, Long> threadsAfter = new TreeMap<>();
            unserved = 0;
            for (int i = 0; i < changes; i++) {
                EventPublisher.publishYarn(server.bootstrap(), ServerMemory.CLUSTER,
                        ServerMemory.lines(tasks + i, tasks + i + 1, tenants));
                awaitAsOf(base, ServerMemory.lastStart(tasks + i + 1), Duration.ofMillis(20));
                int q = (i * 104_729 + 1) % tenants;
                ProcessStats.threadCpuTicks(server.pid()).forEach((k, v) -> threadsBefore.merge(k, v, Long::sum));
                cpu0 = ProcessStats.cpu(server.pid());
                long t0 = System.nanoTime();
                unserved += served(putWeight(admin, q, 30 + i % 5)) ? 0 : 1;
                later[i] = System.nanoTime() - t0;
                cpu = cpu.plus(ProcessStats.cpu(server.pid()).minus(cpu0));
                ProcessStats.threadCpuTicks(server.pid()).forEach((k, v) -> threadsAfter.merge(k, v, Long::sum));
            }
            print("one tenant's weight, each after a new fact (%d more earlier entries)".formatted(changes), later,
                    cpu, unserved);
            ProcessStats.printThreadCpu(threadsBefore, threadsAfter, changes, "ms per PUT");
            int third = Math.max(1, changes / 3);
            System.out.printf("  p50 of the first %d of them %,.0f ms, of the last %d %,.0f ms%n", third,
                    median(Arrays.copyOfRange(later, 0, third)), third,
                    median(Arrays.copyOfRange(later, changes - third, changes)));
            System.out.printf("load average: %s%n", ProcessStats.loadAverage());
        }
    }

    /**
     * Sets the weight of tenant {@code root.q<q>} to {@code weight}: each round sets weights no tenant had before (the
     * settings document gives 1 to 6, the rounds 10 to 14, 20 to 24 and 30 to 34), so that every PUT changes one
     * (sending a tenant's own weight again changes nothing, and the live ledgers have nothing to do).
     */
    private static HttpResponse<String> putWeight(String admin, int q, int weight) throws Exception {
        return put(admin + "/tenants/root.q" + q, "{\"weight\":" + weight + "}");
    }

    /**
     * A PUT of {@code json} to {@code url} over the one connection this tool keeps (HTTP/1.1 keep-alive, as an admin's
     * client reuses one): the time is the server's, not a new client's set-up.
     */
    private static HttpResponse<String> put(String url, String json) throws Exception {
        HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(URI.create(url))
                .header("content-type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300) {
            throw new IllegalStateException(url + " answered " + response.statusCode() + ": " + response.body());
        }
        return response;
    }

    /**
     * Waits until the live ledger has applied every fact fed (a tenant view as of {@code last}), so that the changes are
     * not timed together with the ingest's tail; prints how long that took.
     */
    private static void awaitApplied(String base, Instant last) throws Exception {
        long t0 = System.nanoTime();
        awaitAsOf(base, last, Duration.ofMillis(500));
        System.out.printf("every fact applied by the live ledger %,d ms later%n", (System.nanoTime() - t0) / 1_000_000);
    }

    /**
     * Waits, asking every {@code poll}, until the cluster's fairness view is as of {@code last} (a view that reads no
     * grant: the grants of later views are then computed when read, not by the tick after each change).
     */
    private static void awaitAsOf(String base, Instant last, Duration poll) throws Exception {
        long t0 = System.nanoTime();
        String view = base + "/api/v1/clusters/" + ServerMemory.CLUSTER + "/fairness";
        while (true) {
            HttpResponse<String> answer = ServerMemory.get(view);
            if (answer.statusCode() == 200 && answer.body().contains("\"asOf\":\"" + last + "\"")) {
                return;
            }
            if (System.nanoTime() - t0 > Duration.ofMinutes(10).toNanos()) {
                throw new IllegalStateException("the fairness view is not as of " + last + " after 10 minutes");
            }
            Thread.sleep(poll.toMillis());
        }
    }

    /**
     * Whether the server answered once its reads served the change ({@code Fairledger-Visible: true}); false when its
     * bounded wait ended first, so the time measured is that bound, not the change's.
     */
    private static boolean served(HttpResponse<String> answer) {
        return answer.headers().firstValue("Fairledger-Visible").map(Boolean::parseBoolean).orElse(false);
    }

    private static void print(String what, long[] nanos, Duration cpu, int unserved) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        System.out.printf("%s: %d PUTs, p50 %,.0f ms, p90 %,.0f ms, p99 %,.0f ms, max %,.0f ms; server CPU %,.0f ms "
                + "per PUT; %d answered before their change was served%n", what, sorted.length, at(sorted, 0.5),
                at(sorted, 0.9), at(sorted, 0.99), sorted[sorted.length - 1] / 1e6,
                cpu.toNanos() / 1e6 / sorted.length, unserved);
    }

    /** The median of {@code nanos} in milliseconds. */
    private static double median(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return at(sorted, 0.5);
    }

    /** The {@code p} quantile of {@code sorted} in milliseconds, nearest rank. */
    private static double at(long[] sorted, double p) {
        return sorted[Math.max(0, (int) Math.ceil(p * sorted.length) - 1)] / 1e6;
    }
}
