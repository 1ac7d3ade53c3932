package io.fairledger.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;

/**
 * A real Apicurio Registry (in-memory storage): {@code FAIRLEDGER_TEST_REGISTRY_URL} (the registry's root URL), else a
 * Testcontainers {@code apicurio-registry-mem}, else the application the build makes from Apicurio's artifacts on Maven
 * Central ({@code src/test/apicurio-registry}, into {@code target/apicurio-registry}) started as a local process.
 * Provides {@code fairledger.ingest.registry.url}, Apicurio's own API ({@link #API}).
 */
public final class ApicurioRegistryDependency {

    /** The version of the registry and of its serializer in the test dependencies (pom.xml). */
    public static final String VERSION = "2.4.2.Final";
    /** Apicurio's own API, relative to the registry's root URL. */
    public static final String API = "/apis/registry/v2";
    /** Apicurio's Confluent-compatible API, relative to the registry's root URL. */
    public static final String CONFLUENT_API = "/apis/ccompat/v7";
    static final String APPLICATION = "target/apicurio-registry/quarkus-app/quarkus-run.jar";

    private ApicurioRegistryDependency() {
    }

    /** A started registry; {@code fairledger.ingest.registry.url} in its config is its own API. */
    public static RealDependency.Running start() {
        return RealDependency.start("Apicurio Registry", ApicurioRegistryDependency::fromEnv,
                ApicurioRegistryDependency::container, ApicurioRegistryDependency::local,
                "Set FAIRLEDGER_TEST_REGISTRY_URL to an Apicurio Registry's root URL, or run the build through Maven"
                        + " so it builds " + APPLICATION + " (src/test/apicurio-registry).");
    }

    /** The registry's root URL, from the config a started registry provides. */
    public static String rootUrl(Map<String, String> config) {
        String api = config.get("fairledger.ingest.registry.url");
        return api.substring(0, api.length() - API.length());
    }

    private static RealDependency.Running fromEnv() {
        String url = RealDependency.env("FAIRLEDGER_TEST_REGISTRY_URL");
        return url == null ? null : running(url.endsWith("/") ? url.substring(0, url.length() - 1) : url, () -> {
        });
    }

    @SuppressWarnings("resource")
    private static RealDependency.Running container() {
        GenericContainer<?> container = new GenericContainer<>("quay.io/apicurio/apicurio-registry-mem:" + VERSION)
                .withExposedPorts(8080)
                .waitingFor(Wait.forHttp(API + "/system/info").forStatusCode(200)
                        .withStartupTimeout(Duration.ofMinutes(2)));
        container.start();
        return running("http://" + container.getHost() + ":" + container.getMappedPort(8080), container::stop);
    }

    private static RealDependency.Running local() {
        Path application = application();
        try {
            int port = Processes.freePort();
            Path log = Files.createTempFile("fairledger-test-apicurio-registry", ".log");
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "-Xmx384m", "-Dquarkus.http.host=127.0.0.1", "-Dquarkus.http.port=" + port,
                    "-jar", application.toString()));
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
                    .start();
            String root = "http://127.0.0.1:" + port;
            Processes.awaitHttpOk("Apicurio Registry", root + API + "/system/info", process, Duration.ofMinutes(3),
                    log.toString());
            return running(root, () -> Processes.stop(process));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start Apicurio Registry from " + application, e);
        }
    }

    /** The application the build made, found from the working directory (the project root or integration-tests/). */
    private static Path application() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve(APPLICATION);
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("no " + APPLICATION + " above " + Path.of("").toAbsolutePath());
    }

    private static RealDependency.Running running(String rootUrl, Runnable stop) {
        return RealDependency.Running.of(Map.of("fairledger.ingest.registry.url", rootUrl + API), stop);
    }
}
