package io.fairledger.live;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import io.fairledger.accounting.StatementView;
import io.fairledger.core.ledger.TenantAccount;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.observability.MetricNames;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import io.fairledger.config.FairledgerConfig;

/**
 * Publishes the live views as Prometheus gauges (docs/metrics.md): per tenant (inner ones too, so the zero sum of
 * every sibling group's lending balances can be checked) and per cluster. Label cardinality
 * is bounded: at most {@code fairledger.metrics.max-tenants-per-cluster} tenants per cluster are exported, the first
 * ones in path order; the rest are in the HTTP API only.
 */
@ApplicationScoped
public class LedgerMetrics {

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

    private final Map<Kind, MultiGauge> cluster = new EnumMap<>(Kind.class);
    private final List<MultiGauge> tenant = new ArrayList<>();

    private enum Kind {
        BENEFIT, LOSS, JAIN, CPU, MEMORY, GPU, UTILIZATION
    }

    @PostConstruct
    void register() {
        for (TenantGauge g : TENANT_GAUGES) {
            tenant.add(MultiGauge.builder(g.name()).description(g.description() + " (" + g.unit() + ")")
                    .register(registry));
        }
        cluster.put(Kind.BENEFIT, MultiGauge.builder(MetricNames.CLUSTER_SHARING_BENEFIT)
                .description("Psi over the open period").register(registry));
        cluster.put(Kind.LOSS, MultiGauge.builder(MetricNames.CLUSTER_SHARING_LOSS)
                .description("Omega over the open period").register(registry));
        cluster.put(Kind.JAIN, MultiGauge.builder(MetricNames.CLUSTER_JAIN)
                .description("Jain's index over demand fractions, open period").register(registry));
        cluster.put(Kind.CPU, MultiGauge.builder(MetricNames.CLUSTER_CAPACITY_CPU)
                .description("CPU capacity (cores: YARN vcores, Mesos cpus)").register(registry));
        cluster.put(Kind.MEMORY, MultiGauge.builder(MetricNames.CLUSTER_CAPACITY_MEMORY)
                .description("memory capacity (bytes)").register(registry));
        cluster.put(Kind.GPU, MultiGauge.builder(MetricNames.CLUSTER_CAPACITY_GPU)
                .description("GPU capacity (devices)").register(registry));
        cluster.put(Kind.UTILIZATION, MultiGauge.builder(MetricNames.CLUSTER_UTILIZATION)
                .description("held share of the whole cluster now (ratio)").register(registry));
    }

    /** Replaces every gauge's rows with the values of {@code views}. */
    void publish(Map<String, LiveView> views) {
        List<List<MultiGauge.Row<?>>> tenantRows = new ArrayList<>();
        TENANT_GAUGES.forEach(g -> tenantRows.add(new ArrayList<>()));
        Map<Kind, List<MultiGauge.Row<?>>> clusterRows = new EnumMap<>(Kind.class);
        for (Kind k : Kind.values()) {
            clusterRows.put(k, new ArrayList<>());
        }
        for (LiveView view : views.values()) {
            Tags c = Tags.of(MetricNames.CLUSTER, view.cluster());
            clusterRows.get(Kind.BENEFIT).add(MultiGauge.Row.of(c, view.fairness().sharingBenefit()));
            clusterRows.get(Kind.LOSS).add(MultiGauge.Row.of(c, view.fairness().sharingLoss()));
            clusterRows.get(Kind.JAIN).add(MultiGauge.Row.of(c, view.fairness().jainFairness()));
            ResourceVector cap = view.capacity();
            clusterRows.get(Kind.CPU).add(MultiGauge.Row.of(c, cap.millicores() / 1000.0));
            clusterRows.get(Kind.MEMORY).add(MultiGauge.Row.of(c, cap.memoryMb() * BYTES_PER_MB));
            clusterRows.get(Kind.GPU).add(MultiGauge.Row.of(c, cap.gpus()));
            clusterRows.get(Kind.UTILIZATION).add(MultiGauge.Row.of(c, view.accounts().get(0).now().g()));
            List<TenantAccount> tenants = view.tenants();
            for (TenantAccount a : tenants.subList(0,
                    Math.min(tenants.size(), config.metrics().maxTenantsPerCluster()))) {
                Tenant t = new Tenant(a, view.line(a.path().toString()).orElse(null));
                Tags tags = c.and(MetricNames.TENANT, a.path().toString());
                for (int i = 0; i < TENANT_GAUGES.size(); i++) {
                    double value = TENANT_GAUGES.get(i).value().applyAsDouble(t);
                    if (!Double.isNaN(value)) { // rho without entitlement is absent, not NaN
                        tenantRows.get(i).add(MultiGauge.Row.of(TENANT_GAUGES.get(i).money()
                                ? tags.and(MetricNames.CURRENCY, view.currency())
                                : tags, value));
                    }
                }
            }
        }
        for (int i = 0; i < tenant.size(); i++) {
            tenant.get(i).register(tenantRows.get(i), true);
        }
        clusterRows.forEach((k, rows) -> cluster.get(k).register(rows, true));
    }

}
