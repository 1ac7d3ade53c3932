package io.fairledger.observability;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * {@code fairledger_build_info{version, commit} 1}: which build each replica runs. The version is the artifact's
 * (Maven's project version); the commit is
 * written at build time into {@value #RESOURCE} by buildnumber-maven-plugin, {@code unknown} for a build outside a git checkout.
 */
@ApplicationScoped
public class BuildInfo {

    static final String RESOURCE = "build.properties";
    static final String UNKNOWN = "unknown";

    @ConfigProperty(name = "quarkus.application.version", defaultValue = UNKNOWN)
    String version;

    void register(@Observes StartupEvent event, MeterRegistry registry) {
        Gauge.builder(MetricNames.BUILD_INFO, () -> 1).description("the build this server runs")
                .tag(MetricNames.VERSION, version).tag(MetricNames.COMMIT, commit()).register(registry);
    }

    /** The abbreviated commit id of the build, or {@value #UNKNOWN}. */
    static String commit() {
        try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return UNKNOWN;
            }
            Properties properties = new Properties();
            properties.load(in);
            String commit = properties.getProperty("commit", UNKNOWN);
            return commit.isBlank() || commit.startsWith("${") ? UNKNOWN : commit;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }
}
