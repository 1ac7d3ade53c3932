package io.fairledger.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Map;

import org.testcontainers.kafka.KafkaContainer;

import io.fairledger.standalone.EmbeddedKafkaBroker;

/**
 * A real Kafka broker for tests: {@code FAIRLEDGER_TEST_KAFKA_BOOTSTRAP}, else a Testcontainers
 * {@code apache/kafka}, else the in-process KRaft broker standalone mode uses, in a fresh temporary directory.
 */
public final class KafkaDependency {

    private KafkaDependency() {
    }

    public static RealDependency.Running start() {
        return RealDependency.start("Kafka", KafkaDependency::fromEnv, KafkaDependency::container,
                KafkaDependency::embedded,
                "Set FAIRLEDGER_TEST_KAFKA_BOOTSTRAP to a broker's bootstrap servers, or make sure the Kafka "
                        + "server jars (org.apache.kafka:kafka_2.13) resolve from Maven Central.");
    }

    private static RealDependency.Running fromEnv() {
        String bootstrap = RealDependency.env("FAIRLEDGER_TEST_KAFKA_BOOTSTRAP");
        return bootstrap == null ? null : running(bootstrap, () -> {
        });
    }

    @SuppressWarnings("resource")
    private static RealDependency.Running container() {
        KafkaContainer container = new KafkaContainer("apache/kafka:4.1.1");
        container.start();
        return running(container.getBootstrapServers(), container::stop);
    }

    private static RealDependency.Running embedded() {
        try {
            java.nio.file.Path dir = Files.createTempDirectory("fairledger-test-kafka");
            EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(dir, 0);
            return running(broker.bootstrapServers(), () -> {
                broker.close();
                Processes.deleteTree(dir);
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static RealDependency.Running running(String bootstrap, Runnable stop) {
        return RealDependency.Running.of(Map.of("kafka.bootstrap.servers", bootstrap), stop);
    }
}
