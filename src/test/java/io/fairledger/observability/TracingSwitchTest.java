package io.fairledger.observability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

class TracingSwitchTest {

    @Test
    void anEndpointTurnsTheSdkOnAndNothingElseIsSaid() {
        TracingSwitch on = new TracingSwitch(
                Map.of("QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4317")::get);
        assertThat(on.getValue("quarkus.otel.sdk.disabled")).isEqualTo("false");
        assertThat(on.getValue("quarkus.otel.exporter.otlp.endpoint")).isNull();
        assertThat(on.getProperties()).containsOnly(Map.entry("quarkus.otel.sdk.disabled", "false"));

        TracingSwitch traces = new TracingSwitch(
                Map.of("QUARKUS_OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://collector:4317")::get);
        assertThat(traces.getValue("quarkus.otel.sdk.disabled")).isEqualTo("false");
    }

    @Test
    void withoutAnEndpointOrWithABlankOneItSaysNothing() {
        assertThat(new TracingSwitch(name -> null).getValue("quarkus.otel.sdk.disabled")).isNull();
        assertThat(new TracingSwitch(name -> null).getProperties()).isEmpty();
        assertThat(new TracingSwitch(Map.of("QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT", " ")::get)
                .getValue("quarkus.otel.sdk.disabled")).isNull();
    }

    @Test
    void itRanksAbovePackagedDefaultsAndBelowTheOperatorsFiles() {
        assertThat(new TracingSwitch().getOrdinal()).isGreaterThan(250).isLessThan(260);
    }
}
