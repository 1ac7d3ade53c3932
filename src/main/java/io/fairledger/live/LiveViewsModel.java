package io.fairledger.live;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import io.fairledger.accounting.StatementView;
import io.fairledger.core.chargeback.Chargeback;
import io.fairledger.core.grant.Claimant;
import io.fairledger.core.grant.GrantLevel;
import io.fairledger.core.grant.Grants;
import io.fairledger.core.ledger.TenantAccount;
import io.fairledger.core.model.MemoryUnits;

/** The JSON bodies of the live views (docs/api.md). Resources in vcores, MB and GPUs; usage in capacity-hours. */
public final class LiveViewsModel {

    private LiveViewsModel() {
    }

    /** One tenant's grant. */
    public record Grant(String tenant, double vcores, double memoryMb, double gpus, double share) {
        static Grant of(Grants.Grant g) {
            double[] a = g.allocation();
            return new Grant(g.id(), a[0] / 1000.0, a[1] / MemoryUnits.PER_MB, a[2], g.share());
        }
    }

    /** The children of {@code parent} and what each is granted, listed in the order to serve them. */
    public record Level(String parent, List<Grant> grants) {
        static Level of(GrantLevel l) {
            java.util.Map<String, Grants.Grant> byId = l.grants().byId();
            return new Level(l.parent().toString(), l.grants().order().stream().map(id -> Grant.of(byId.get(id)))
                    .toList());
        }
    }

    /** Grants for the next interval: targets per tenant, level by level, and how long they hold. */
    public record GrantsView(String cluster, Instant asOf, double intervalSeconds, Instant validUntil,
            List<Level> levels) {
        public static GrantsView of(LiveView v) {
            return new GrantsView(v.cluster(), v.asOf(), v.grantIntervalMs() / 1000.0,
                    v.asOf().plusMillis(v.grantIntervalMs()), v.grants().stream().map(Level::of).toList());
        }
    }

    /** Cluster-wide aggregates, public to every caller with a tenant in the cluster (docs/api.md). */
    public record FairnessView(String cluster, Instant asOf, String period, double sharingBenefit,
            double sharingLoss, double jainFairness, double equality, double utilization, double capacityVcores,
            long capacityMemoryMb, long capacityGpus, int tenants) {
        public static FairnessView of(LiveView v) {
            return new FairnessView(v.cluster(), v.asOf(), v.openPeriod().id(),
                    v.fairness().sharingBenefit(), v.fairness().sharingLoss(), v.fairness().jainFairness(),
                    v.fairness().equality(), v.accounts().get(0).now().g(), v.capacity().millicores() / 1000.0,
                    // a capacity is whole MB: the settings and capacity events give it so
                    v.capacity().memoryMilliMb() / MemoryUnits.PER_MB, v.capacity().gpus(), v.leaves().size());
        }
    }

    /** One tenant now and over the open period. */
    public record TenantView(String cluster, String tenant, Instant asOf, String period, double weight,
            double share, double discountRate, Now now, Usage openPeriod, Grant grant) {
    }

    /** Instantaneous values (fractions of capacity). */
    public record Now(double held, double counted, double demand, double entitled, double borrowed,
            double unused, int runningTasks) {
        static Now of(TenantAccount.Rates r) {
            return new Now(r.g(), r.counted(), r.demand(), r.entitled(), r.borrowed(), r.unused(), r.runningTasks());
        }
    }

    /**
     * Accumulated values of the open period, every usage value in {@code units} ({@value #USAGE_UNITS}, as statements):
     * A, F, E, rho, what the tenant lent (matched), borrowed (raw), owed (matched) and its lending balance
     * {@code lent - owed}, for inner tenants too (their lending is at their own level); the charge to date (0 for an
     * inner tenant, which is never charged; null for the root).
     */
    public record Usage(String units, BigDecimal actual, BigDecimal counted, BigDecimal entitled, Double rho,
            BigDecimal lent, BigDecimal borrowed, BigDecimal owed, BigDecimal lendingBalance, boolean inner,
            BigDecimal chargeToDate) {
    }

    /** The units of every usage value of a tenant view and of a statement. */
    public static final String USAGE_UNITS = "capacity-hours";

    public static TenantView tenant(LiveView v, TenantAccount a) {
        String id = a.path().toString();
        StatementView.Line line = v.line(id).orElse(null);
        double[] g = v.grantByTenant().get(id);
        TenantAccount.PeriodTotals p = a.period();
        Double rho = p.entitled() > 0 ? p.actual() / p.entitled() : null;
        BigDecimal lent = Chargeback.capacityHours(p.lent());
        BigDecimal owed = Chargeback.capacityHours(p.borrowedFromSiblings());
        Usage usage = new Usage(USAGE_UNITS, Chargeback.capacityHours(p.actual()),
                Chargeback.capacityHours(p.counted()), Chargeback.capacityHours(p.entitled()),
                line == null ? rho : line.rho(), lent, Chargeback.capacityHours(p.borrowed()), owed,
                lent.subtract(owed), line != null && line.inner(), line == null ? null : line.charge());
        return new TenantView(v.cluster(), id, v.asOf(), v.openPeriod().id(), a.weight(), a.share(),
                a.discountRate(), Now.of(a.now()), usage,
                g == null ? null : new Grant(id, g[0] / 1000.0, g[1] / MemoryUnits.PER_MB, g[2], a.share()));
    }

    /** rho of one period. */
    public record Degree(String period, Instant start, Instant end, boolean closed, Double rho) {
    }

    /** A tenant's fairness degree per period: the closed ones, then the open one to date. */
    public record FairnessHistory(String cluster, String tenant, List<Degree> periods) {
    }

    public static List<Degree> degrees(String tenant, List<StatementView> closed, StatementView open) {
        List<Degree> out = new ArrayList<>();
        for (StatementView s : closed) {
            s.lines().stream().filter(l -> l.tenant().equals(tenant)).findFirst()
                    .ifPresent(l -> out.add(new Degree(s.period(), s.start(), s.end(),
                            StatementView.CLOSED.equals(s.state()), l.rho())));
        }
        open.lines().stream().filter(l -> l.tenant().equals(tenant)).findFirst()
                .ifPresent(l -> out.add(new Degree(open.period(), open.start(), open.end(), false, l.rho())));
        return out;
    }

    /** One sibling's inputs to the grant (docs/domain.md section 7). */
    public record ClaimantInput(String tenant, double weight, double share, double demandVcores,
            double demandMemoryMb, double demandGpus,
            @Schema(description = "F + phi + quantum top-up, in capacity-seconds (seconds of the whole cluster's "
                    + "capacity: 3600 per capacity-hour)") double schedulingValue,
            double discountRate) {
        static ClaimantInput of(Claimant c) {
            return new ClaimantInput(c.id(), c.weight(), c.share(), c.demand()[0] / 1000.0,
                    c.demand()[1] / MemoryUnits.PER_MB,
                    c.demand()[2], c.accumulated() / 1000.0, c.discountRate());
        }
    }

    /**
     * Why a tenant gets what it gets: its siblings' inputs, what their parent had to split, the order and the result.
     */
    public record GrantExplanation(String cluster, String tenant, Instant asOf, String rule, String parent,
            double availableVcores, double availableMemoryMb, double availableGpus, double intervalSeconds,
            List<ClaimantInput> siblings, List<String> order, Grant grant) {
        public static GrantExplanation of(LiveView v, String tenant, GrantLevel level) {
            double[] av = level.request().available();
            Grant grant = level.grants().grants().stream().filter(g -> g.id().equals(tenant)).map(Grant::of)
                    .findFirst().orElseThrow();
            return new GrantExplanation(v.cluster(), tenant, v.asOf(), RULE, level.parent().toString(),
                    av[0] / 1000.0, av[1] / MemoryUnits.PER_MB, av[2], level.request().interval() / 1000.0,
                    level.request().claimants().stream().map(ClaimantInput::of).toList(), level.grants().order(),
                    grant);
        }
    }

    static final String RULE = "Long-term weighted max-min (LTRF eqs. 7, 9, 11 and Algorithm 1, Tang et al., 2014; "
            + "docs/domain.md section 7): what the parent was granted is water-filled among the siblings so as to "
            + "maximise the smallest (schedulingValue + counted rate x interval) / weight, where schedulingValue = F + "
            + "phi + quantum top-up and the counted rate discounts holding above one's share by the discount rate; "
            + "never above a sibling's demand, nothing idle while a sibling wants more; weight-0 siblings only get "
            + "what the others leave; served in increasing schedulingValue / weight, ties by id.";
}
