package io.fairledger.integrations.bridgetests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.fairledger.testsupport.Processes;
import io.fairledger.testsupport.RealDependency;
import io.fairledger.testsupport.ServerEnvironment;

/**
 * The packaged fairledger server ({@code target/quarkus-app/quarkus-run.jar} of the root build) run as a process on
 * the given PostgreSQL and Kafka: fairledger as a black box, as an operator installs it next to a cluster.
 */
final class FairledgerServer implements AutoCloseable {

    final int port;
    final Path log;
    private final Process process;

    private FairledgerServer(int port, Path log, Process process) {
        this.port = port;
        this.log = log;
        this.process = process;
    }

    static FairledgerServer start(RealDependency.Running postgres, RealDependency.Running kafka,
            Map<String, String> extraEnv) {
        Path jar = Path.of(System.getProperty("fairledger.server.jar", "../../target/quarkus-app/quarkus-run.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("no packaged server at " + jar.toAbsolutePath()
                    + ": run `./mvnw install` at the project root first (the README's test command does)");
        }
        try {
            int port = Processes.freePort();
            int managementPort = Processes.freePort();
            Path log = Files.createTempFile("fairledger-integrations-server", ".log");
            ProcessBuilder builder = new ProcessBuilder(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar.toString(),
                    "serve")).redirectErrorStream(true).redirectOutput(log.toFile());
            Map<String, String> env = builder.environment();
            env.putAll(ServerEnvironment.of(port, managementPort, postgres, kafka));
            env.putAll(extraEnv);
            System.out.println("[fairledger-integrations] server starting on port " + port + ", log " + log);
            FairledgerServer server = new FairledgerServer(port, log, builder.start());
            // health is on the management interface, not on the API port; a start took 134 s on a 2-core machine
            // shared with a load of 38
            Processes.awaitHttpOk("fairledger", "http://127.0.0.1:" + managementPort + "/q/health/ready",
                    server.process, Duration.ofSeconds(240), log.toString());
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** Registers a cluster with its ledger settings (a JSON document of docs/ingestion.md). */
    void register(String cluster, String resourceManager, String settings) {
        register(cluster, resourceManager, settings, () -> null);
    }

    /** The same as an admin, for a server that requires tokens: a token for each request (they may be short). */
    void register(String cluster, String resourceManager, String settings, Supplier<String> adminToken) {
        Http.expect(201, Http.send("POST", baseUrl() + "/api/v1/admin/clusters",
                "{\"id\":\"" + cluster + "\",\"resourceManager\":\"" + resourceManager + "\"}",
                adminToken.get()));
        Http.expect(200, Http.send("PUT", baseUrl() + "/api/v1/admin/clusters/" + cluster + "/ledger-settings",
                settings, adminToken.get()));
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            Processes.stop(process);
        }
    }
}
