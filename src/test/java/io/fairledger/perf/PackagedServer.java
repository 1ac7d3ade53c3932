package io.fairledger.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import io.fairledger.testsupport.KafkaDependency;
import io.fairledger.testsupport.PostgresDependency;
import io.fairledger.testsupport.Processes;
import io.fairledger.testsupport.RealDependency;
import io.fairledger.testsupport.ServerEnvironment;

/**
 * The packaged server (production mode) of a load tool, run as a process against a real PostgreSQL and Kafka broker
 * started for it on two free ports (API and management): {@link #start} starts the three and waits until the server is
 * ready; {@link #close} stops them all. The server is started by {@link ServerEnvironment#startPackaged} unless the
 * tool passes a {@link Launcher} of its own, so {@code BENCH_SERVER_JVM_OPTS} goes to its JVM.
 */
public final class PackagedServer implements AutoCloseable {

    /** Starts a server process of {@code jar} on the given ports, pointed at the dependencies. */
    @FunctionalInterface
    public interface Launcher {
        Process launch(Path jar, int port, int managementPort, RealDependency.Running postgres,
                RealDependency.Running kafka) throws IOException;
    }

    private final Path jar;
    private final Launcher launcher;
    private final RealDependency.Running postgres;
    private final RealDependency.Running kafka;
    private final int port = Processes.freePort();
    private final int managementPort = Processes.freePort();
    private Process process;
    private long launchedAt;

    private PackagedServer(Path jar, Launcher launcher, RealDependency.Running postgres,
            RealDependency.Running kafka) {
        this.jar = jar;
        this.launcher = launcher;
        this.postgres = postgres;
        this.kafka = kafka;
    }

    /**
     * The jar of {@code BENCH_SERVER_JAR} (another build, for an A/B comparison under the same load), else the one
     * {@code ./mvnw -B package -DskipTests} makes; fails when it does not exist.
     */
    public static Path jar() {
        String other = System.getenv("BENCH_SERVER_JAR");
        Path jar = Path.of(other == null ? "target/quarkus-app/quarkus-run.jar" : other);
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("package the server first: ./mvnw -B package -DskipTests");
        }
        return jar;
    }

    /** Starts PostgreSQL, Kafka and the server of {@code jar}; waits up to {@code readiness} for it to be ready. */
    public static PackagedServer start(Path jar, Duration readiness) throws IOException {
        return start(jar, readiness, ServerEnvironment::startPackaged);
    }

    /** As {@link #start(Path, Duration)}, the server started by {@code launcher}. */
    public static PackagedServer start(Path jar, Duration readiness, Launcher launcher) throws IOException {
        RealDependency.Running postgres = PostgresDependency.start();
        RealDependency.Running kafka;
        try {
            kafka = KafkaDependency.start();
        } catch (RuntimeException | Error e) {
            postgres.close();
            throw e;
        }
        PackagedServer server = new PackagedServer(jar, launcher, postgres, kafka);
        try {
            server.launch();
            Processes.awaitHttpOk("fairledger", server.management() + "/q/health/ready", server.process, readiness,
                    "the server log");
            return server;
        } catch (IOException | RuntimeException | Error e) {
            server.close();
            throw e;
        }
    }

    /** Starts a new server process on the same ports and dependencies, without waiting for it. */
    public void launch() throws IOException {
        launchedAt = System.nanoTime();
        process = launcher.launch(jar, port, managementPort, postgres, kafka);
    }

    /** Stops the server process (SIGTERM, SIGKILL after 30 s); the dependencies keep running. */
    public void stop() {
        Processes.stop(process);
    }

    /** When the running process was started, in {@link System#nanoTime()}. */
    public long launchedAt() {
        return launchedAt;
    }

    public Process process() {
        return process;
    }

    public long pid() {
        return process.pid();
    }

    /** The API's base URL, {@code http://127.0.0.1:port}. */
    public String base() {
        return "http://127.0.0.1:" + port;
    }

    /** The management interface's base URL (health and metrics: its own port, the same Vert.x event loops). */
    public String management() {
        return "http://127.0.0.1:" + managementPort;
    }

    public String bootstrap() {
        return kafka.config().get("kafka.bootstrap.servers");
    }

    public RealDependency.Running postgres() {
        return postgres;
    }

    /** Stops the server, then Kafka and PostgreSQL. */
    @Override
    public void close() {
        try {
            if (process != null) {
                Processes.stop(process);
            }
        } finally {
            try {
                kafka.close();
            } finally {
                postgres.close();
            }
        }
    }
}
