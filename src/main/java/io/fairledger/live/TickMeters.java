package io.fairledger.live;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import io.fairledger.facts.FreshFacts;
import io.fairledger.observability.MetricNames;

/**
 * The live ledgers' own meters ({@link LiveLedgers}; docs/metrics.md): rebuilds, settings changes taken in place, the
 * facts applied by where they came from, the bytes the ticks allocated and the time of each phase of a tick
 * ({@link BoundedReplays} times its own).
 */
final class TickMeters {

    /** The tick's phases ({@link MetricNames#LIVE_TICK}), named in lower case. */
    enum Phase {
        APPLY, REBUILD, VIEW, STORE, CLOSE, PUBLISH
    }

    private final Counter rebuilds;
    private final Counter continued;
    private final Counter fromMemory;
    private final Counter read;
    private final Counter allocated;
    private final Map<Phase, Timer> phases = new EnumMap<>(Phase.class);

    TickMeters(MeterRegistry registry) {
        rebuilds = Counter.builder(MetricNames.LIVE_REBUILDS)
                .description("live ledgers rebuilt from a checkpoint or the registration (late fact, settings change)")
                .register(registry);
        continued = Counter.builder(MetricNames.LIVE_CONTINUED)
                .description("settings changes a live ledger took in place, after its latest fact, replaying nothing")
                .register(registry);
        fromMemory = facts(registry, "memory");
        read = facts(registry, "database");
        allocated = Counter.builder(MetricNames.LIVE_TICK_ALLOCATED).baseUnit("bytes")
                .description("bytes the live ledgers' ticks allocated on their thread").register(registry);
        for (Phase phase : Phase.values()) {
            phases.put(phase, LedgerMetrics.tickTimer(registry, phase.name().toLowerCase(Locale.ROOT)));
        }
    }

    private static Counter facts(MeterRegistry registry, String origin) {
        return Counter.builder(MetricNames.LIVE_FACTS).tag(MetricNames.ORIGIN, origin)
                .description("facts the live ledgers' ticks applied in place, by where they came from")
                .register(registry);
    }

    void rebuilt() {
        rebuilds.increment();
    }

    void continued() {
        continued.increment();
    }

    void applied(FreshFacts.Merged merged) {
        fromMemory.increment(merged.fromMemory());
        read.increment(merged.read());
    }

    void allocated(long bytes) {
        allocated.increment(bytes);
    }

    Timer timer(Phase phase) {
        return phases.get(phase);
    }

    /** Records the time since {@code startedNs} under {@code phase}; returns now, the next phase's start. */
    long record(Phase phase, long startedNs) {
        long now = System.nanoTime();
        phases.get(phase).record(now - startedNs, TimeUnit.NANOSECONDS);
        return now;
    }
}
