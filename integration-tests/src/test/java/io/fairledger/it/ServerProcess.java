package io.fairledger.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.fairledger.testsupport.Processes;

/**
 * The packaged server ({@code target/quarkus-app/quarkus-run.jar}) run as a process, as an operator runs it, on a free
 * API port and a free management port (health and metrics).
 */
final class ServerProcess implements AutoCloseable {

    final int port;
    final int managementPort;
    final Path log;
    private final Process process;

    private ServerProcess(int port, int managementPort, Path log, Process process) {
        this.port = port;
        this.managementPort = managementPort;
        this.log = log;
        this.process = process;
    }

    static Path jar() {
        Path jar = Path.of(System.getProperty("fairledger.server.jar", "../target/quarkus-app/quarkus-run.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("no packaged server at " + jar.toAbsolutePath()
                    + ": run `./mvnw install` at the project root first (the README's test command does)");
        }
        return jar;
    }

    /**
     * Starts {@code fairledger <args>} with these environment variables and free API and management ports; does not
     * wait.
     */
    static ServerProcess launch(Map<String, String> env, String... args) {
        try {
            int port = Processes.freePort();
            int managementPort = Processes.freePort();
            Path log = Files.createTempFile("fairledger-it-server", ".log");
            List<String> command = new ArrayList<>(
                    List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                            jar().toString()));
            command.addAll(List.of(args));
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            builder.environment().put("QUARKUS_HTTP_PORT", Integer.toString(port));
            builder.environment().put("QUARKUS_MANAGEMENT_PORT", Integer.toString(managementPort));
            builder.environment().putAll(env);
            System.out.println("[fairledger-it] server starting on port " + port + " (management " + managementPort
                    + "), log " + log);
            return new ServerProcess(port, managementPort, log, builder.start());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Launches and waits for {@code /q/health/ready} on the management port. */
    static ServerProcess start(Map<String, String> env, String... args) {
        ServerProcess server = launch(env, args);
        server.awaitReady();
        return server;
    }

    void awaitReady() {
        Processes.awaitHttpOk("fairledger", managementUrl() + "/q/health/ready", process, Duration.ofSeconds(120),
                log.toString());
    }

    /** The API. */
    String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** The management interface: {@code /q/health}, {@code /q/metrics}. */
    String managementUrl() {
        return "http://127.0.0.1:" + managementPort;
    }

    /** Waits for the process to exit by itself and returns its code. */
    int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("fairledger did not exit within " + timeout + "; see " + log);
        }
        return process.exitValue();
    }

    /** Sends SIGTERM, as Ctrl-C or an orchestrator would, and returns the exit code. */
    int terminate() throws InterruptedException {
        return terminate(Duration.ofSeconds(60));
    }

    /** Sends SIGTERM and returns the exit code, failing if the process has not exited within {@code within}. */
    int terminate(Duration within) throws InterruptedException {
        process.destroy();
        return awaitExit(within);
    }

    /** SIGKILL: the process gets no chance to clean up, as in a crash. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }

    String output() throws IOException {
        return Files.readString(log);
    }

    long pid() {
        return process.pid();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            Processes.stop(process);
        }
    }
}
