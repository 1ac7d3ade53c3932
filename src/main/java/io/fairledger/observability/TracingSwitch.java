package io.fairledger.observability;

import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Turns tracing on when an OTLP endpoint is given: the server's own {@code application.properties} switches the
 * OpenTelemetry SDK off ({@code quarkus.otel.sdk.disabled=true}, so a server without a collector neither exports nor
 * records spans), and this source answers {@code false} for that key when {@code QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT}
 * or {@code QUARKUS_OTEL_EXPORTER_OTLP_TRACES_ENDPOINT} is set (as an environment variable or a system property of
 * the same name in lower case with dots). Its ordinal is above the packaged defaults (250) and below
 * {@code config/application.properties} (260) and the environment (300), so an operator's explicit
 * {@code QUARKUS_OTEL_SDK_DISABLED} still wins (docs/deployment.md, "Traces"). Registered in
 * {@code META-INF/services/org.eclipse.microprofile.config.spi.ConfigSource}.
 */
public final class TracingSwitch implements ConfigSource {

    static final String SDK_DISABLED = "quarkus.otel.sdk.disabled";
    private static final Set<String> ENDPOINTS = Set.of("QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT",
            "QUARKUS_OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");

    private final UnaryOperator<String> environment;

    /** Reads the process' environment and system properties. */
    public TracingSwitch() {
        this(name -> {
            String value = System.getenv(name);
            return value != null ? value : System.getProperty(name.toLowerCase().replace('_', '.'));
        });
    }

    TracingSwitch(UnaryOperator<String> environment) {
        this.environment = environment;
    }

    private boolean endpointGiven() {
        return ENDPOINTS.stream().map(environment).anyMatch(v -> v != null && !v.isBlank());
    }

    @Override
    public Map<String, String> getProperties() {
        return endpointGiven() ? Map.of(SDK_DISABLED, "false") : Map.of();
    }

    @Override
    public Set<String> getPropertyNames() {
        return getProperties().keySet();
    }

    @Override
    public String getValue(String propertyName) {
        return SDK_DISABLED.equals(propertyName) && endpointGiven() ? "false" : null;
    }

    @Override
    public String getName() {
        return "fairledger-tracing-switch";
    }

    @Override
    public int getOrdinal() {
        return 251;
    }
}
