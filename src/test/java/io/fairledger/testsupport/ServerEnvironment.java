package io.fairledger.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The environment that points a packaged server (production mode) at a real PostgreSQL and Kafka broker. */
public final class ServerEnvironment {

    private ServerEnvironment() {
    }

    /**
     * HTTP (API) port, management port (health and metrics), PostgreSQL URL and credentials, Kafka bootstrap servers;
     * a mutable map, so callers may add more.
     */
    public static Map<String, String> of(int port, int managementPort, RealDependency.Running postgres,
            RealDependency.Running kafka) {
        Map<String, String> env = new HashMap<>();
        env.put("QUARKUS_HTTP_PORT", Integer.toString(port));
        env.put("QUARKUS_MANAGEMENT_PORT", Integer.toString(managementPort));
        env.put("QUARKUS_DATASOURCE_JDBC_URL", postgres.config().get("quarkus.datasource.jdbc.url"));
        env.put("QUARKUS_DATASOURCE_USERNAME", postgres.config().get("quarkus.datasource.username"));
        env.put("QUARKUS_DATASOURCE_PASSWORD", postgres.config().get("quarkus.datasource.password"));
        env.put("KAFKA_BOOTSTRAP_SERVERS", kafka.config().get("kafka.bootstrap.servers"));
        // a production server signs closed statements with the ledger key, and refuses to start without one; a test's
        // server signs with one made at its start (docs/billing.md)
        env.put("FAIRLEDGER_LEDGER_KEY_EPHEMERAL", "true");
        return env;
    }

    /**
     * Starts the packaged server ({@code java -jar quarkus-run.jar serve}) with this environment, output to a temporary
     * log whose path is printed; the JVM options in {@code BENCH_SERVER_JVM_OPTS} (split on spaces) go first, e.g.
     * {@code -Xlog:gc:file=/tmp/gc.log} or {@code -XX:StartFlightRecording=filename=/tmp/server.jfr,settings=profile}.
     */
    public static Process startPackaged(Path jar, int port, int managementPort, RealDependency.Running postgres,
            RealDependency.Running kafka) throws IOException {
        List<String> command = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        String jvmOptions = System.getenv("BENCH_SERVER_JVM_OPTS");
        if (jvmOptions != null && !jvmOptions.isBlank()) {
            command.addAll(List.of(jvmOptions.trim().split("\\s+")));
        }
        command.addAll(List.of("-jar", jar.toString(), "serve"));
        Path log = Files.createTempFile("fairledger-server", ".log");
        System.out.println("server log: " + log + ", command: " + command);
        ProcessBuilder server = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        server.environment().putAll(of(port, managementPort, postgres, kafka));
        return server.start();
    }
}
