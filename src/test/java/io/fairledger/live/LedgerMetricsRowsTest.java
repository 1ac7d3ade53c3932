package io.fairledger.live;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class LedgerMetricsRowsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final LedgerMetrics.Rows rows = new LedgerMetrics.Rows(MultiGauge.builder("g").register(registry));

    private Gauge gauge(String tenant) {
        return registry.find("g").tags("tenant", tenant).gauge();
    }

    @Test
    void aRowKeepsItsGaugeAndShowsEachPublishedValueAndARowNotPublishedAgainIsGone() {
        rows.put(Tags.of("tenant", "a"), 1);
        rows.put(Tags.of("tenant", "b"), 2);
        rows.publish();
        Gauge a = gauge("a");
        assertThat(a.value()).isEqualTo(1);
        assertThat(gauge("b").value()).isEqualTo(2);

        rows.put(Tags.of("tenant", "a"), 3);
        rows.put(Tags.of("tenant", "b"), 4);
        rows.publish();
        assertThat(gauge("a")).isSameAs(a);
        assertThat(a.value()).isEqualTo(3);
        assertThat(gauge("b").value()).isEqualTo(4);

        rows.put(Tags.of("tenant", "a"), 5);
        rows.put(Tags.of("tenant", "c"), 6);
        rows.publish();
        assertThat(gauge("a")).isSameAs(a);
        assertThat(a.value()).isEqualTo(5);
        assertThat(gauge("b")).isNull();
        assertThat(gauge("c").value()).isEqualTo(6);

        rows.publish();
        assertThat(registry.find("g").gauges()).isEmpty();
    }
}
