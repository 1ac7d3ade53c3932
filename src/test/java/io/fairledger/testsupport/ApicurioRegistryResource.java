package io.fairledger.testsupport;

import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/** {@link ApicurioRegistryDependency} for {@code @QuarkusTest}s: the server looks writer schemas up in it. */
public final class ApicurioRegistryResource implements QuarkusTestResourceLifecycleManager {

    private RealDependency.Running registry;

    @Override
    public Map<String, String> start() {
        registry = ApicurioRegistryDependency.start();
        return registry.config();
    }

    @Override
    public void stop() {
        if (registry != null) {
            registry.close();
        }
    }
}
