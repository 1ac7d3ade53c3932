package io.fairledger.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

import org.junit.jupiter.api.Test;

class StartupSettingsTest {

    @Test
    void withoutOidcOnlyLoopbackMayBeBound() {
        assertThat(new StartupSettings(null, null, null, "127.0.0.1").refusal()).isNull();
        assertThat(new StartupSettings(null, null, null, "localhost").refusal()).isNull();
        assertThat(new StartupSettings(null, null, null, null).refusal()).isNull();
        assertThat(new StartupSettings(null, null, null, "0.0.0.0").refusal())
                .startsWith("refusing to bind 0.0.0.0 without an OIDC server");
        assertThat(new StartupSettings(null, null, "http://kc/realms/fairledger", "0.0.0.0").refusal()).isNull();
    }

    @Test
    void anUnreachableDependencyIsNamed() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        String db = "jdbc:postgresql://127.0.0.1:" + closedPort + "/fairledger";
        assertThat(ExternalDependencies.firstUnreachable(new StartupSettings(db, null, null, null)))
                .startsWith("PostgreSQL at 127.0.0.1:" + closedPort + " (quarkus.datasource.jdbc.url) is unreachable");
        assertThat(ExternalDependencies
                .firstUnreachable(new StartupSettings(null, "127.0.0.1:" + closedPort, null, null)))
                .startsWith("Kafka at 127.0.0.1:" + closedPort + " (kafka.bootstrap.servers) is unreachable");
        assertThat(ExternalDependencies.firstUnreachable(
                new StartupSettings(null, null, "http://127.0.0.1:" + closedPort + "/realms/fairledger", null)))
                .startsWith("the OIDC server (Keycloak) at 127.0.0.1:" + closedPort);
    }

    @Test
    void reachableDependenciesPass() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            String hostPort = "127.0.0.1:" + socket.getLocalPort();
            assertThat(ExternalDependencies.firstUnreachable(new StartupSettings("jdbc:postgresql://" + hostPort + "/x",
                    hostPort, "http://" + hostPort + "/realms/fairledger", null))).isNull();
        }
    }

    @Test
    void aMultiHostJdbcUrlIsReadAsPgJdbcReadsIt() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        try (ServerSocket socket = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            String open = "127.0.0.1:" + socket.getLocalPort();
            String closed = "127.0.0.1:" + closedPort;
            assertThat(ExternalDependencies.firstUnreachable(new StartupSettings(
                    "jdbc:postgresql://" + closed + "," + open + "/fairledger?targetServerType=primary", null, null,
                    null))).as("one host of two answers").isNull();
            assertThat(ExternalDependencies.firstUnreachable(new StartupSettings(null, closed + "," + open, null,
                    null))).as("one Kafka bootstrap server of two answers").isNull();
            assertThat(ExternalDependencies.firstUnreachable(
                    new StartupSettings("jdbc:postgresql://" + closed + "," + closed + "/fairledger", null, null,
                            null)))
                    .startsWith("PostgreSQL at 127.0.0.1:" + closedPort
                            + " (quarkus.datasource.jdbc.url) is unreachable");
        }
        assertThat(ExternalDependencies
                .firstUnreachable(new StartupSettings("jdbc:mysql://127.0.0.1/fairledger", null, null, null)))
                .contains("is not a PostgreSQL JDBC URL");
    }
}
