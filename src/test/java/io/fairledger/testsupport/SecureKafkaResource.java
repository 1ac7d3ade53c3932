package io.fairledger.testsupport;

import java.util.HashMap;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * {@link SecureKafkaBroker} for {@code @QuarkusTest}s: the server gets the right SASL_SSL settings as {@code kafka.*}
 * keys, as an operator would give them.
 */
public final class SecureKafkaResource implements QuarkusTestResourceLifecycleManager {

    private SecureKafkaBroker broker;

    @Override
    public Map<String, String> start() {
        broker = SecureKafkaBroker.start();
        RealDependency.log("SASL_SSL Kafka started in-JVM at " + broker.bootstrapServers());
        Map<String, String> config = new HashMap<>();
        broker.clientConfig(SecureKafkaBroker.PASSWORD).forEach((key, value) -> config.put("kafka." + key, value));
        return config;
    }

    @Override
    public void stop() {
        if (broker != null) {
            broker.close();
        }
    }
}
