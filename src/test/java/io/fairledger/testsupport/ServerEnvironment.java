package io.fairledger.testsupport;

import java.util.HashMap;
import java.util.Map;

/** The environment that points a packaged server (production mode) at a real PostgreSQL and Kafka broker. */
public final class ServerEnvironment {

    private ServerEnvironment() {
    }

    /** HTTP port, PostgreSQL URL and credentials, Kafka bootstrap servers; a mutable map, so callers may add more. */
    public static Map<String, String> of(int port, RealDependency.Running postgres, RealDependency.Running kafka) {
        Map<String, String> env = new HashMap<>();
        env.put("QUARKUS_HTTP_PORT", Integer.toString(port));
        env.put("QUARKUS_DATASOURCE_JDBC_URL", postgres.config().get("quarkus.datasource.jdbc.url"));
        env.put("QUARKUS_DATASOURCE_USERNAME", postgres.config().get("quarkus.datasource.username"));
        env.put("QUARKUS_DATASOURCE_PASSWORD", postgres.config().get("quarkus.datasource.password"));
        env.put("KAFKA_BOOTSTRAP_SERVERS", kafka.config().get("kafka.bootstrap.servers"));
        return env;
    }
}
