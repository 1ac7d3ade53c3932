package io.fairledger.live;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import org.jboss.logging.Logger;

import io.fairledger.accounting.StatementView;
import io.fairledger.config.FairledgerConfig;
import io.fairledger.core.ledger.TenantAccount;
import io.fairledger.core.model.MemoryUnits;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.observability.MetricNames;

/**
 * Publishes the live views as Prometheus gauges (docs/metrics.md): per tenant (inner ones too, so the zero sum of
 * every sibling group's lending balances can be checked) and per cluster. Label cardinality
 * is bounded: at most {@code fairledger.metrics.max-tenants-per-cluster} tenants per cluster are exported, the first
 * ones in path order; the rest are in the HTTP API only.
 */
@ApplicationScoped
public class LedgerMetrics {

    private static final Logger LOG = Logger.getLogger(LedgerMetrics.class);

    /**
     * One per-tenant gauge: its name, description, unit and value. The unit goes into the description, not into
     * Micrometer's base unit, which would suffix the Prometheus name (docs/metrics.md fixes the names). Money gauges
     * carry the cluster's ISO 4217 code as the {@code currency} label.
     */
    private record TenantGauge(String name, String description, String unit, ToDoubleFunction<Tenant> value) {
        boolean money() {
            return unit.equals("currency");
        }
    }

    /** What a tenant's gauges read. */
    private record Tenant(TenantAccount account, StatementView.Line line) {
    }

    private static final double MS = 1000.0;
    /** YARN's and Mesos's megabytes are mebibytes. */
    private static final double BYTES_PER_MB = 1024.0 * 1024.0;

    private static final List<TenantGauge> TENANT_GAUGES = List.of(
            new TenantGauge(MetricNames.TENANT_SHARE, "absolute share S", "ratio", t -> t.account().share()),
            new TenantGauge(MetricNames.TENANT_ALLOCATION, "held share g now", "ratio", t -> t.account().now().g()),
            new TenantGauge(MetricNames.TENANT_DEMAND, "demand share d now", "ratio", t -> t.account().now().demand()),
            new TenantGauge(MetricNames.TENANT_ENTITLEMENT, "entitlement min(d, S) now", "ratio",
                    t -> t.account().now().entitled()),
            new TenantGauge(MetricNames.TENANT_USAGE_ACTUAL, "A over the open period", "capacity-seconds",
                    t -> t.account().period().actual() / MS),
            new TenantGauge(MetricNames.TENANT_USAGE_COUNTED, "F over the open period", "capacity-seconds",
                    t -> t.account().period().counted() / MS),
            new TenantGauge(MetricNames.TENANT_USAGE_ENTITLED, "E over the open period", "capacity-seconds",
                    t -> t.account().period().entitled() / MS),
            new TenantGauge(MetricNames.TENANT_FAIRNESS, "rho = A / E over the open period", "ratio",
                    t -> t.line() == null || t.line().rho() == null ? Double.NaN : t.line().rho()),
            new TenantGauge(MetricNames.TENANT_LENDING_BALANCE, "lent minus owed, open period",
                    "capacity-seconds", t -> t.account().period().balance() / MS),
            new TenantGauge(MetricNames.TENANT_CHARGE, "charge of the open period to date", "currency",
                    t -> t.line() == null ? 0 : t.line().charge().doubleValue()));

    @Inject
    MeterRegistry registry;

    @Inject
    FairledgerConfig config;

    private final Map<Kind, Rows> cluster = new EnumMap<>(Kind.class);
    private final List<Rows> tenant = new ArrayList<>();

    private enum Kind {
        BENEFIT, LOSS, JAIN, CPU, MEMORY, GPU, UTILIZATION
    }

    @PostConstruct
    void register() {
        for (TenantGauge g : TENANT_GAUGES) {
            tenant.add(new Rows(MultiGauge.builder(g.name()).description(g.description() + " (" + g.unit() + ")")
                    .register(registry)));
        }
        cluster.put(Kind.BENEFIT, rows(MetricNames.CLUSTER_SHARING_BENEFIT, "Psi over the open period"));
        cluster.put(Kind.LOSS, rows(MetricNames.CLUSTER_SHARING_LOSS, "Omega over the open period"));
        cluster.put(Kind.JAIN, rows(MetricNames.CLUSTER_JAIN, "Jain's index over demand fractions, open period"));
        cluster.put(Kind.CPU, rows(MetricNames.CLUSTER_CAPACITY_CPU,
                "CPU capacity (cores: YARN vcores, Mesos cpus)"));
        cluster.put(Kind.MEMORY, rows(MetricNames.CLUSTER_CAPACITY_MEMORY, "memory capacity (bytes)"));
        cluster.put(Kind.GPU, rows(MetricNames.CLUSTER_CAPACITY_GPU, "GPU capacity (devices)"));
        cluster.put(Kind.UTILIZATION, rows(MetricNames.CLUSTER_UTILIZATION,
                "held share of the whole cluster now (ratio)"));
    }

    private Rows rows(String name, String description) {
        return new Rows(MultiGauge.builder(name).description(description).register(registry));
    }

    /**
     * The gauges are set on a thread of their own ({@code fairledger-metrics}): they read every view's open statement
     * and fairness, which a view computes when first read ({@link LiveView}), and a tick, or a settings change waiting
     * for one, must not wait for that. A publish runs at most once per {@link #PUBLISH_GAP_NS} (a scrape interval is
     * seconds); asks made while one waits to run fold into it, and it reads the views as they are when it runs.
     */
    private final ExecutorService publisher = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "fairledger-metrics");
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicBoolean publishAsked = new AtomicBoolean();
    private static final long PUBLISH_GAP_NS = TimeUnit.SECONDS.toNanos(1);
    /** When the last publish started (publisher thread only). */
    private long lastPublishNs = System.nanoTime() - PUBLISH_GAP_NS;

    /**
     * Publishes {@link #publish} the views {@code views} gives when the publisher thread comes to it, timed by
     * {@code timer}; returns at once.
     */
    void publishSoon(Supplier<Map<String, LiveView>> views, Timer timer) {
        if (publishAsked.compareAndSet(false, true)) {
            publisher.execute(() -> {
                try {
                    TimeUnit.NANOSECONDS.sleep(lastPublishNs + PUBLISH_GAP_NS - System.nanoTime());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                publishAsked.set(false);
                long started = System.nanoTime();
                lastPublishNs = started;
                try {
                    publish(views.get());
                } catch (RuntimeException e) {
                    LOG.warnf(e, "live ledgers: publishing the gauges failed, retried at the next change");
                }
                timer.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
            });
        }
    }

    @PreDestroy
    void stop() {
        publisher.shutdownNow();
    }

    /** The timer of one phase of the live ledgers' tick ({@link MetricNames#LIVE_TICK}). */
    static Timer tickTimer(MeterRegistry registry, String phase) {
        return Timer.builder(MetricNames.LIVE_TICK)
                .description("time the live ledgers' tick spends per phase and cluster")
                .tag(MetricNames.PHASE, phase)
                .register(registry);
    }

    /** Replaces every gauge's rows with the values of {@code views}. */
    void publish(Map<String, LiveView> views) {
        for (LiveView view : views.values()) {
            Tags c = Tags.of(MetricNames.CLUSTER, view.cluster());
            cluster.get(Kind.BENEFIT).put(c, view.fairness().sharingBenefit());
            cluster.get(Kind.LOSS).put(c, view.fairness().sharingLoss());
            cluster.get(Kind.JAIN).put(c, view.fairness().jainFairness());
            ResourceVector cap = view.capacity();
            cluster.get(Kind.CPU).put(c, cap.millicores() / 1000.0);
            cluster.get(Kind.MEMORY).put(c, cap.memoryMilliMb() / (double) MemoryUnits.PER_MB * BYTES_PER_MB);
            cluster.get(Kind.GPU).put(c, cap.gpus());
            cluster.get(Kind.UTILIZATION).put(c, view.accounts().get(0).now().g());
            List<TenantAccount> tenants = view.tenants();
            for (TenantAccount a : tenants.subList(0,
                    Math.min(tenants.size(), config.metrics().maxTenantsPerCluster()))) {
                Tenant t = new Tenant(a, view.line(a).orElse(null));
                Tags tags = c.and(MetricNames.TENANT, a.path().toString());
                for (int i = 0; i < TENANT_GAUGES.size(); i++) {
                    double value = TENANT_GAUGES.get(i).value().applyAsDouble(t);
                    if (!Double.isNaN(value)) { // rho without entitlement is absent, not NaN
                        tenant.get(i).put(TENANT_GAUGES.get(i).money()
                                ? tags.and(MetricNames.CURRENCY, view.currency())
                                : tags, value);
                    }
                }
            }
        }
        tenant.forEach(Rows::publish);
        cluster.values().forEach(Rows::publish);
    }

    /**
     * The rows of one {@link MultiGauge}, each reading a holder kept as long as its tags are published: a publish sets
     * the values, registers only the rows that are new and removes those not published again. (Registering every row
     * anew at every publish cost about a second per 1,000 tenants on each tick of the live ledgers.) Not thread-safe:
     * only the publisher thread publishes ({@link LedgerMetrics#publishSoon}).
     */
    static final class Rows {

        /** A row's value, read by its gauge at each scrape. */
        private static final class Value {
            private volatile double value;
        }

        private final MultiGauge gauge;
        private Map<Tags, Value> published = new HashMap<>();
        private Map<Tags, Value> next = new HashMap<>();

        Rows(MultiGauge gauge) {
            this.gauge = gauge;
        }

        /** Sets the row of {@code tags} to {@code value} at the next {@link #publish}. */
        void put(Tags tags, double value) {
            Value holder = published.get(tags);
            if (holder == null) {
                holder = new Value();
            }
            holder.value = value;
            next.put(tags, holder);
        }

        /** Makes the rows put since the last publish the gauge's rows: their values now, the others gone. */
        void publish() {
            if (!next.keySet().equals(published.keySet())) {
                List<MultiGauge.Row<?>> rows = new ArrayList<>(next.size());
                next.forEach((tags, holder) -> rows.add(MultiGauge.Row.of(tags, holder, h -> h.value)));
                gauge.register(rows, false);
            }
            published = next;
            next = new HashMap<>();
        }
    }
}
