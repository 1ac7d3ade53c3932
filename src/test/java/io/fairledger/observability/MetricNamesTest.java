package io.fairledger.observability;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * Every metric name says its unit (docs/metrics.md, "Units"): gauges end in one of the units, counters and timers get
 * theirs from the registry ({@code _total}, {@code _seconds}), money carries a {@code currency} label instead, and
 * the build gauge is an {@code _info}; a gauge of 1 or 0 ends in {@code _up}.
 */
class MetricNamesTest {

    private static final List<String> UNITS = List.of(".ratio", ".capacity.seconds", ".seconds", ".bytes", ".cores",
            ".devices", ".records", ".jobs", ".info");
    /** Counters (exported with {@code _total}), timers (with {@code _seconds}) and money (with {@code currency}). */
    private static final Set<String> SUFFIXED_BY_TYPE_OR_LABEL = Set.of(MetricNames.INGEST_EVENTS,
            MetricNames.INGEST_DEAD_LETTERS, MetricNames.ADMISSION_DECISIONS, MetricNames.LIVE_REBUILDS,
            MetricNames.LIVE_CONTINUED, MetricNames.LIVE_FACTS, MetricNames.LIVE_TICK_ALLOCATED,
            MetricNames.INGEST_BATCH_DECODE, MetricNames.INGEST_BATCH_COMMIT, MetricNames.LIVE_TICK,
            MetricNames.TENANT_CHARGE);
    /** 1 or 0 flags, named like Prometheus' own {@code up}: no unit. */
    private static final Set<String> UP = Set.of(MetricNames.DATABASE_UP, MetricNames.SCHEMA_REGISTRY_UP,
            MetricNames.STATEMENT_CHAIN_BROKEN);

    @Test
    void everyMetricNameEndsInItsUnit() throws IllegalAccessException {
        List<String> names = new ArrayList<>();
        for (Field field : MetricNames.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.get(null) instanceof String name
                    && name.startsWith("fairledger.")) {
                names.add(name);
            }
        }
        assertThat(names).hasSizeGreaterThan(25);
        assertThat(names).filteredOn(name -> !SUFFIXED_BY_TYPE_OR_LABEL.contains(name) && !UP.contains(name))
                .as("gauges whose name does not end in a unit")
                .allMatch(name -> UNITS.stream().anyMatch(name::endsWith));
    }
}
