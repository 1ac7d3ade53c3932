package io.fairledger.testsupport;

import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/** {@link KafkaDependency} for {@code @QuarkusTest}s. */
public final class KafkaResource implements QuarkusTestResourceLifecycleManager {

    private RealDependency.Running kafka;

    @Override
    public Map<String, String> start() {
        kafka = KafkaDependency.start();
        return kafka.config();
    }

    @Override
    public void stop() {
        if (kafka != null) {
            kafka.close();
        }
    }
}
