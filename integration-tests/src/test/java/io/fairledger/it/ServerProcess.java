package io.fairledger.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPairGenerator;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fairledger.testsupport.Processes;
import io.fairledger.testsupport.RealDependency;

/**
 * The packaged server run as a process, as an operator runs it, on a free API port and a free management port (health
 * and metrics): the production build ({@code target/quarkus-app}) or, for {@code serve} in standalone mode, the
 * standalone build ({@code target/standalone-app}, what {@code ./fairledger} runs).
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

    /**
     * The environment of a server on the tests' PostgreSQL and Kafka (a mutable map: tests add their own settings, or
     * point the JDBC URL through a proxy).
     */
    static Map<String, String> environment(RealDependency.Running postgres, RealDependency.Running kafka) {
        Map<String, String> env = new HashMap<>();
        env.put("QUARKUS_DATASOURCE_JDBC_URL", postgres.config().get("quarkus.datasource.jdbc.url"));
        env.put("QUARKUS_DATASOURCE_USERNAME", postgres.config().get("quarkus.datasource.username"));
        env.put("QUARKUS_DATASOURCE_PASSWORD", postgres.config().get("quarkus.datasource.password"));
        env.put("KAFKA_BOOTSTRAP_SERVERS", kafka.config().get("kafka.bootstrap.servers"));
        return env;
    }

    /** A connection to the tests' PostgreSQL, as the server's own settings reach it. */
    static Connection database(RealDependency.Running postgres) throws SQLException {
        return DriverManager.getConnection(postgres.config().get("quarkus.datasource.jdbc.url"),
                postgres.config().get("quarkus.datasource.username"),
                postgres.config().get("quarkus.datasource.password"));
    }

    /** The production build, which embeds no PostgreSQL or Kafka (the image and the chart run it). */
    static Path jar() {
        return packaged("fairledger.server.jar", "../target/quarkus-app/quarkus-run.jar", "./mvnw install");
    }

    /** The standalone build: the production build plus the embedded PostgreSQL and Kafka broker. */
    static Path standaloneJar() {
        return packaged("fairledger.standalone.jar", "../target/standalone-app/quarkus-run.jar",
                "./mvnw -Pstandalone -DskipTests package");
    }

    private static Path packaged(String property, String fallback, String build) {
        Path jar = Path.of(System.getProperty(property, fallback));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("no packaged server at " + jar.toAbsolutePath() + ": run `" + build
                    + "` at the project root first (the README's test command does)");
        }
        return jar;
    }

    /**
     * Starts {@code fairledger <args>} with these environment variables and free API and management ports; does not
     * wait. A variable given as "" is left unset: {@code QUARKUS_MANAGEMENT_PORT} so, the server settles the port
     * itself (and {@link #managementPort} is not its port). {@code serve} without a PostgreSQL or a Kafka address is standalone mode and runs the standalone build;
     * everything else runs the production build.
     */
    static ServerProcess launch(Map<String, String> env, String... args) {
        boolean standalone = args.length > 0 && args[0].equals("serve")
                && !(env.containsKey("QUARKUS_DATASOURCE_JDBC_URL") && env.containsKey("KAFKA_BOOTSTRAP_SERVERS"));
        return launch(standalone ? standaloneJar() : jar(), env, args);
    }

    /**
     * {@code statements} (a statements answer) without each closed statement's {@code chain}, which only the server
     * adds (it signs what it closes, docs/billing.md): the rest compares with {@code fairledger account}'s.
     */
    static JsonNode withoutChain(JsonNode statements) {
        statements.forEach(statement -> ((ObjectNode) statement).remove("chain"));
        return statements;
    }

    /** The ledger key of every server the tests start: an Ed25519 key in PKCS#8 PEM, made once per run. */
    private static final Path LEDGER_KEY = ledgerKey();

    private static Path ledgerKey() {
        try {
            Path file = Files.createTempFile("fairledger-it-ledger-key", ".pem");
            byte[] der = KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPrivate().getEncoded();
            Files.writeString(file, "-----BEGIN PRIVATE KEY-----\n" + Base64.getEncoder().encodeToString(der)
                    + "\n-----END PRIVATE KEY-----\n");
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no Ed25519", e);
        }
    }

    /** Starts {@code java -jar <jar> <args>} as {@link #launch(Map, String...)} does. */
    static ServerProcess launch(Path jar, Map<String, String> env, String... args) {
        try {
            int port = Processes.freePort();
            int managementPort = Processes.freePort();
            Path log = Files.createTempFile("fairledger-it-server", ".log");
            List<String> command = new ArrayList<>(
                    List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                            jar.toString()));
            command.addAll(List.of(args));
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            builder.environment().put("QUARKUS_HTTP_PORT", Integer.toString(port));
            builder.environment().put("QUARKUS_MANAGEMENT_PORT", Integer.toString(managementPort));
            // every server of a run signs closed statements with one key, as replicas must (docs/billing.md)
            builder.environment().put("FAIRLEDGER_LEDGER_KEY_FILE", LEDGER_KEY.toString());
            builder.environment().putAll(env);
            builder.environment().values().removeIf(String::isEmpty);
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
        awaitReady(managementPort);
    }

    /** Waits for {@code /q/health/ready} on the management interface at {@code port} (one the server settled). */
    void awaitReady(int port) {
        Processes.awaitHttpOk("fairledger", "http://127.0.0.1:" + port + "/q/health/ready", process,
                Duration.ofSeconds(120), log.toString());
    }

    /** The API. */
    String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** The management interface: {@code /q/health}, {@code /q/metrics}. */
    String managementUrl() {
        return "http://127.0.0.1:" + managementPort;
    }

    /** An address of this machine that is not loopback, to call the server as another machine would. */
    static String nonLoopbackAddress() {
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (nic.isUp() && !nic.isLoopback()) {
                    for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                        if (address instanceof Inet4Address) {
                            return address.getHostAddress();
                        }
                    }
                }
            }
        } catch (SocketException e) {
            throw new UncheckedIOException(e);
        }
        throw new IllegalStateException("this machine has no IPv4 address but loopback: the test calls the server "
                + "from a non-loopback address");
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

    /**
     * SIGKILL: the process gets no chance to clean up, as in a crash. Returns the exit status, 137 (128 + 9) when the
     * signal ended it.
     */
    int kill() throws InterruptedException {
        process.destroyForcibly();
        return awaitExit(Duration.ofSeconds(30));
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
