package io.fairledger.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;

/**
 * A real Prometheus scraping the given targets every second: {@code FAIRLEDGER_TEST_PROMETHEUS_URL} (a server the
 * caller configured), else a Testcontainers {@code prom/prometheus}, else Debian's {@code prometheus}: the binary on the
 * PATH, or, when it is not installed, Debian's package fetched with {@code apt-get download} (no root needed) and
 * unpacked under {@code ~/.cache/fairledger}. Provides {@code prometheus.url}.
 */
public final class PrometheusDependency {

    private PrometheusDependency() {
    }

    /** @param scrapeTargets {@code host:port} of each server exposing {@code /q/metrics}: one job, one instance each */
    public static RealDependency.Running start(String... scrapeTargets) {
        return scraping(null, scrapeTargets);
    }

    /**
     * As {@link #start}, sending {@code bearerToken} (the server's {@code fairledger.metrics.scrape-token}) with every
     * scrape, as Prometheus's {@code authorization} setting does; none when it is null.
     */
    public static RealDependency.Running scraping(String bearerToken, String... scrapeTargets) {
        String authorization = bearerToken == null ? "" : """
                    authorization:
                      credentials: '%s'
                """.formatted(bearerToken);
        String config = """
                global:
                  scrape_interval: 1s
                  evaluation_interval: 1s
                scrape_configs:
                  - job_name: fairledger
                    metrics_path: /q/metrics
                %s    static_configs:
                      - targets: [%s]
                """.formatted(authorization, String.join(", ", java.util.Arrays.stream(scrapeTargets)
                .map(t -> "'" + t + "'").toList()));
        return RealDependency.start("Prometheus", PrometheusDependency::fromEnv, () -> container(config),
                () -> local(config),
                "Set FAIRLEDGER_TEST_PROMETHEUS_URL, or install Prometheus: apt-get install -y prometheus");
    }

    private static RealDependency.Running fromEnv() {
        String url = RealDependency.env("FAIRLEDGER_TEST_PROMETHEUS_URL");
        return url == null ? null : RealDependency.Running.of(Map.of("prometheus.url", url), () -> {
        });
    }

    @SuppressWarnings("resource")
    private static RealDependency.Running container(String config) {
        GenericContainer<?> container = new GenericContainer<>("prom/prometheus:v3.5.0")
                .withCopyToContainer(org.testcontainers.images.builder.Transferable.of(config),
                        "/etc/prometheus/prometheus.yml")
                .withExposedPorts(9090)
                .withExtraHost("host.docker.internal", "host-gateway")
                .waitingFor(Wait.forHttp("/-/ready").forStatusCode(200));
        container.start();
        return RealDependency.Running.of(
                Map.of("prometheus.url", "http://" + container.getHost() + ":" + container.getMappedPort(9090)),
                container::stop);
    }

    private static RealDependency.Running local(String config) {
        try {
            Path dir = Files.createTempDirectory("fairledger-test-prometheus");
            Path configFile = dir.resolve("prometheus.yml");
            Files.writeString(configFile, config);
            int port = Processes.freePort();
            Path log = dir.resolve("prometheus.log");
            Process process = new ProcessBuilder(DebianTool.path("prometheus", "prometheus"),
                    "--config.file=" + configFile,
                    "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            String url = "http://127.0.0.1:" + port;
            Processes.awaitHttpOk("Prometheus", url + "/-/ready", process, Duration.ofSeconds(60), log.toString());
            return RealDependency.Running.of(Map.of("prometheus.url", url), () -> Processes.stop(process));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start Prometheus (is the prometheus binary installed?)", e);
        }
    }
}
