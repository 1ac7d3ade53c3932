package io.fairledger.testsupport;

import java.util.Map;
import java.util.function.Supplier;

import org.testcontainers.DockerClientFactory;

/**
 * How every test gets a real dependency, tried in order: an address from the environment, Testcontainers when a Docker
 * engine answers, then a local process or embedded instance. Nothing is ever skipped: when no way works the test fails
 * with a message saying how to provide the dependency. Each start and stop is printed, so the test log shows what ran.
 */
public final class RealDependency {

    /** A started dependency: the configuration it provides and how to stop it. */
    public interface Running extends AutoCloseable {
        Map<String, String> config();

        @Override
        void close();

        static Running of(Map<String, String> config, Runnable stop) {
            return new Running() {
                @Override
                public Map<String, String> config() {
                    return config;
                }

                @Override
                public void close() {
                    stop.run();
                }
            };
        }
    }

    private static Boolean dockerAvailable;

    private RealDependency() {
    }

    /**
     * @param name        what it is, for the log ("PostgreSQL")
     * @param fromEnv     the dependency given by the environment, or null when no address is set
     * @param container   starts it with Testcontainers
     * @param local       starts it as a local process or embedded instance
     * @param howToGetOne what to do when nothing works
     */
    public static Running start(String name, Supplier<Running> fromEnv, Supplier<Running> container,
            Supplier<Running> local, String howToGetOne) {
        long started = System.nanoTime();
        Running running = fromEnv.get();
        String how = "from the environment";
        if (running == null && docker()) {
            running = container.get();
            how = "with Testcontainers";
        }
        if (running == null) {
            try {
                running = local.get();
                how = "locally (process or embedded)";
            } catch (RuntimeException e) {
                throw new IllegalStateException(name + " could not be started: " + e.getMessage() + ". " + howToGetOne,
                        e);
            }
        }
        log(name + " started " + how + " in " + (System.nanoTime() - started) / 1_000_000 + " ms: "
                + running.config());
        Running inner = running;
        return Running.of(inner.config(), () -> {
            inner.close();
            log(name + " stopped");
        });
    }

    /** Reads an environment variable, falling back to the system property of the same name. */
    public static String env(String name) {
        String value = System.getenv(name);
        if (value == null) {
            value = System.getProperty(name);
        }
        return value == null || value.isBlank() ? null : value;
    }

    static synchronized boolean docker() {
        if (dockerAvailable == null) {
            try {
                dockerAvailable = DockerClientFactory.instance().isDockerAvailable();
            } catch (RuntimeException | LinkageError e) {
                dockerAvailable = false;
            }
            log("Docker engine " + (dockerAvailable ? "available: using Testcontainers" : "not available"));
        }
        return dockerAvailable;
    }

    static void log(String message) {
        System.out.println("[fairledger-test] " + message);
    }
}
