package io.fairledger.testsupport;

import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/** {@link PostgresDependency} for {@code @QuarkusTest}s. */
public final class PostgresResource implements QuarkusTestResourceLifecycleManager {

    private RealDependency.Running postgres;

    @Override
    public Map<String, String> start() {
        postgres = PostgresDependency.start();
        return postgres.config();
    }

    @Override
    public void stop() {
        if (postgres != null) {
            postgres.close();
        }
    }
}
