package io.fairledger.testsupport;

import java.util.HashMap;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * {@link SecureKafkaBroker} for {@code @QuarkusTest}s: the server gets the right SASL_SSL settings as {@code kafka.*}
 * keys, as an operator would give them. Its order puts it after {@link KafkaResource}, whose plaintext address every
 * test gets (a global resource), so these settings are the ones the server sees.
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
    public int order() {
        return 100;
    }

    @Override
    public void stop() {
        if (broker != null) {
            broker.close();
        }
    }
}
