package io.fairledger.perf.memory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.fairledger.perf.PackagedServer;
import io.fairledger.perf.ProcessStats;
import io.fairledger.testsupport.Processes;
import io.fairledger.testsupport.RealDependency;
import io.fairledger.testsupport.ServerEnvironment;

/**
 * Load tool for the restart of the packaged production server (issue #15: restart to grants 200 in at most 10 s):
 * starts the server against a real PostgreSQL and Kafka broker, gives it one cluster with T tenants and N running tasks
 * ({@link ServerMemory#loadRunningTasks}), then R times stops it (SIGTERM) and starts a new process, and prints for each
 * start the time until HTTP answers at all, until {@code GET .../grants} answers 200, and the CPU time the process had
 * used by then (a figure the machine's load inflates less than the times). Each server's log (Quarkus's console format,
 * with milliseconds) is printed by path, for where the start-up goes. Arguments: tenants, tasks, restarts. The server
 * runs with the JVM options of {@code BENCH_SERVER_JVM_OPTS} (the launcher's defaults to measure what
 * {@code ./fairledger serve} runs; system properties such as {@code -Dquarkus.log.category."org.flywaydb".level=DEBUG}
 * go there too) and the jar of {@code BENCH_SERVER_JAR} (default {@code target/quarkus-app/quarkus-run.jar}). Asserts
 * nothing; docs/benchmarks.md has the results.
 *
 * <pre>
 * ./mvnw -B -DskipTests package
 * BENCH_SERVER_JVM_OPTS="-Xmx512m -XX:+UseG1GC -XX:G1PeriodicGCInterval=15000 -XX:MinHeapFreeRatio=20 \
 *     -XX:MaxHeapFreeRatio=40" ./mvnw -B -Pbench test-compile exec:exec \
 *     -Dbench.main=io.fairledger.perf.memory.StartupTime -Dbench="1000 10000 3"
 * </pre>
 */
public final class StartupTime {

    private static final Duration PATIENCE = Duration.ofMinutes(5);

    private StartupTime() {
    }

    public static void main(String[] args) throws Exception {
        int tenants = args.length > 0 ? Integer.parseInt(args[0]) : 1_000;
        int tasks = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        int restarts = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        Path jar = PackagedServer.jar();
        System.out.printf("%,d tenants, %,d running tasks, %d restarts; load average %s%n", tenants, tasks, restarts,
                ProcessStats.loadAverage());
        try (PackagedServer server = PackagedServer.start(jar, PATIENCE, StartupTime::start)) {
            String grants = server.base() + "/api/v1/clusters/" + ServerMemory.CLUSTER + "/grants";
            System.out.printf("first start (empty database): ready after %.1f s, CPU %.1f s%n",
                    (System.nanoTime() - server.launchedAt()) / 1e9, ProcessStats.cpu(server.pid()).toMillis() / 1e3);
            ServerMemory.loadRunningTasks(server.base(), server.management(), server.bootstrap(), tenants, tasks);
            awaitStatus(grants, 200, server.process());
            for (int r = 1; r <= restarts; r++) {
                long stopping = System.nanoTime();
                server.stop();
                double stopped = (System.nanoTime() - stopping) / 1e9;
                server.launch();
                double answering = awaitStatus(grants, 200, server.process()) - server.launchedAt() / 1e9;
                double served = (System.nanoTime() - server.launchedAt()) / 1e9;
                System.out.printf(
                        "restart %d: stopped in %.1f s; HTTP answering after %.1f s, grants 200 after %.1f s; "
                                + "CPU %.1f s by then; %s; load average %s%n",
                        r, stopped, answering, served, ProcessStats.cpu(server.pid()).toMillis() / 1e3,
                        ProcessStats.status(server.pid(), "VmRSS"), ProcessStats.loadAverage());
                System.out.println("  CPU by thread: " + threadCpu(server.pid()));
            }
        }
    }

    /**
     * Starts the server as {@link ServerEnvironment#startPackaged} does; with {@code BENCH_SERVER_IN_APP_DIR=true}, in
     * the jar's directory as {@code -jar quarkus-run.jar}, the one way a Quarkus AppCDS archive
     * ({@code quarkus.package.jar.appcds.enabled}, {@code -XX:SharedArchiveFile=app-cds.jsa}) is used.
     */
    private static Process start(Path jar, int port, int managementPort, RealDependency.Running postgres,
            RealDependency.Running kafka) throws IOException {
        if (!"true".equals(System.getenv("BENCH_SERVER_IN_APP_DIR"))) {
            return ServerEnvironment.startPackaged(jar, port, managementPort, postgres, kafka);
        }
        List<String> command = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        String jvmOptions = System.getenv("BENCH_SERVER_JVM_OPTS");
        if (jvmOptions != null && !jvmOptions.isBlank()) {
            command.addAll(List.of(jvmOptions.trim().split("\\s+")));
        }
        command.addAll(List.of("-jar", jar.getFileName().toString(), "serve"));
        Path log = Files.createTempFile("fairledger-server", ".log");
        System.out.println("server log: " + log + ", in " + jar.toAbsolutePath().getParent() + ": " + command);
        ProcessBuilder server = new ProcessBuilder(command).directory(jar.toAbsolutePath().getParent().toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        server.environment().putAll(ServerEnvironment.of(port, managementPort, postgres, kafka));
        return server.start();
    }

    /**
     * CPU time (user and system, {@code /proc/PID/task/TID/stat}) of the process's threads so far, summed by thread
     * name with digits left out (the JIT compilers, GC workers, main...), the ten largest first.
     */
    static String threadCpu(long pid) throws IOException {
        Map<String, Long> ticks = new HashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    // the name is in parentheses and may hold spaces: the fields after it are counted from there
                    String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    String name = Files.readString(task.resolve("comm")).strip().replaceAll("[-#]?[0-9]+$", "");
                    ticks.merge(name, Long.parseLong(after[11]) + Long.parseLong(after[12]), Long::sum);
                } catch (IOException threadEnded) {
                    // gone meanwhile
                }
            }
        }
        return ticks.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(10)
                .map(e -> "%s %.1f s".formatted(e.getKey(), e.getValue() / 100.0)).collect(Collectors.joining(", "));
    }

    /** Waits until {@code url} answers {@code status}; returns when it first answered anything (seconds, nanoTime). */
    private static double awaitStatus(String url, int status, Process server) {
        return Processes.awaitHttp("the server", url, status, server, PATIENCE, "the server's log") / 1e9;
    }
}
