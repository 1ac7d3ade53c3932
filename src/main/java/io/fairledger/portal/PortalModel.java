package io.fairledger.portal;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.fairledger.accounting.StatementView;
import io.fairledger.admission.AdmissionViews;
import io.fairledger.live.LiveViewsModel;
import io.fairledger.tenancy.LedgerSettings;

/** What the portal's pages show, built from the API's own views so the numbers are the API's. */
public final class PortalModel {

    private PortalModel() {
    }

    /** A cluster and the tenants of it the login covers (every leaf for an admin). */
    public record ClusterEntry(String id, String name, String resourceManager, List<String> tenants) {
    }

    /** One period of a tenant: usage A and entitlement E in capacity-hours, rho; the open period last. */
    public record PeriodRow(String period, Instant start, Instant end, boolean closed, BigDecimal actual,
            BigDecimal entitled, Double rho) {
    }

    /**
     * A tenant's periods from its statements and the open one to date; a period is open while the latest event
     * ({@code asOf}) falls before its end.
     */
    static List<PeriodRow> periods(String tenant, List<StatementView> statements, StatementView open,
            Instant asOf) {
        List<PeriodRow> rows = new ArrayList<>();
        for (StatementView s : statements) {
            s.lines().stream().filter(l -> l.tenant().equals(tenant)).findFirst().ifPresent(
                    l -> rows.add(new PeriodRow(s.period(), s.start(), s.end(), !s.end().isAfter(asOf), l.actual(),
                            l.entitled(), l.rho())));
        }
        if (open != null && rows.stream().noneMatch(r -> r.period().equals(open.period()))) {
            open.lines().stream().filter(l -> l.tenant().equals(tenant)).findFirst().ifPresent(
                    l -> rows.add(new PeriodRow(open.period(), open.start(), open.end(), false, l.actual(),
                            l.entitled(), l.rho())));
        }
        return rows;
    }

    /** A tenant related to the one a page shows: its parent or one of its children, linked. */
    public record Relative(String relation, String path) {
    }

    /** The parent (unless it is the root) and the children of {@code tenant} among {@code tenants}, parent first. */
    static List<Relative> family(String tenant, List<String> tenants) {
        io.fairledger.core.model.TenantPath self = io.fairledger.core.model.TenantPath.parse(tenant);
        List<Relative> out = new ArrayList<>();
        if (!self.isRoot() && !self.parent().isRoot()) {
            out.add(new Relative("parent", self.parent().toString()));
        }
        for (String t : tenants) {
            io.fairledger.core.model.TenantPath p = io.fairledger.core.model.TenantPath.parse(t);
            if (!p.isRoot() && p.parent().equals(self)) {
                out.add(new Relative("child", t));
            }
        }
        return out;
    }

    /** The chart's data: one array per series, periods in order (read by portal.js, shown as a table without it). */
    static Map<String, Object> chart(List<PeriodRow> rows) {
        return Map.of("labels", rows.stream().map(PeriodRow::period).toList(),
                "start", rows.stream().map(r -> r.start().getEpochSecond()).toList(),
                "actual", rows.stream().map(r -> r.actual().doubleValue()).toList(),
                "entitled", rows.stream().map(r -> r.entitled().doubleValue()).toList(),
                "rho", rows.stream().map(PeriodRow::rho).toList());
    }

    /** The current grant in words, with the siblings' inputs that produced it. */
    public record GrantWords(String sentence, String rule, List<LiveViewsModel.ClaimantInput> siblings,
            List<String> order) {

        static GrantWords of(LiveViewsModel.GrantExplanation e) {
            int place = e.order().indexOf(e.tenant()) + 1;
            String sentence = String.format(java.util.Locale.ROOT,
                    "For the next %s s, %s may hold %s vcores, %s MB of memory and %s GPUs (share %s). Its parent "
                            + "%s had %s vcores, %s MB and %s GPUs to split among %d siblings; %s is served %s of %d, "
                            + "in increasing (scheduling value / weight).",
                    Format.number(e.intervalSeconds()), e.tenant(), Format.number(e.grant().vcores()),
                    Format.number(e.grant().memoryMb()), Format.number(e.grant().gpus()),
                    Format.number(e.grant().share()), e.parent(), Format.number(e.availableVcores()),
                    Format.number(e.availableMemoryMb()), Format.number(e.availableGpus()), e.siblings().size(),
                    e.tenant(), Format.ordinal(place), e.order().size());
            return new GrantWords(sentence, e.rule(), e.siblings(), e.order());
        }

        /** The serving order as one line. */
        public String orderText() {
            return String.join(", ", order);
        }
    }

    /** A job of the tenant with each admission decision. */
    public record JobRow(String id, String tenant, String status, int tasks, int cpus, Instant submittedAt,
            Instant deadlineAt, List<DecisionRow> decisions) {

        static JobRow of(AdmissionViews.JobView j) {
            return new JobRow(j.id(), j.tenant(), j.status().name(), j.tasks(), j.cpus(), j.submittedAt(),
                    j.deadlineAt(), j.history().stream().map(DecisionRow::of).toList());
        }
    }

    /** One decision on a job and why, in words and numbers. */
    public record DecisionRow(Instant at, String outcome, Integer cpus, String reason, String numbers) {

        static DecisionRow of(AdmissionViews.Change c) {
            AdmissionViews.Explanation x = c.explanation();
            String numbers = x == null
                    ? ""
                    : String.format(java.util.Locale.ROOT,
                            "policy %s; capacity %d CPUs (at most %d per job); deadline %s s, time to deadline %s s; "
                                    + "CPU fraction %s; required CPUs %s; queue-time scaling %s; priority %s CPU/s; "
                                    + "%d CPUs free before the pass; %d completions learned",
                            x.policy(), x.capacity(), x.maxCpus(), Format.number(x.deadlineMillis() / 1000.0),
                            Format.number(x.ttdMillis() / 1000.0), Format.number(x.fraction()),
                            x.requiredCpus() == null ? "-" : x.requiredCpus().toString(),
                            Format.number(x.queueTimeScaling()), Format.number(x.priority()), x.freeCpus(),
                            x.completionsLearned());
            return new DecisionRow(c.at(), c.outcome(), c.cpus(), c.reason(), numbers);
        }
    }

    /**
     * How a cluster's books are kept, as the admin cluster page shows it: the periods, the prices and the discount
     * rate the statements are computed under (the ledger settings in force, with their defaults filled in).
     */
    public record Books(Instant registeredAt, Duration periodLength, Instant periodOrigin, String calendar,
            Duration allowedLateness,
            String model, String currency, double discountRate, List<LedgerSettings.Plan> plans, String defaultPlan,
            BigDecimal costPerPeriod) {

        static Books of(LedgerSettings s) {
            LedgerSettings.Chargeback c = s.chargeback();
            return new Books(s.registeredAt(),
                    s.nominalPeriod(),
                    s.period() == null || s.period().origin() == null ? s.registeredAt() : s.period().origin(),
                    s.period() == null || s.period().zone() == null
                            ? null
                            : (s.period().length() == null ? "P1D" : s.period().length()) + " in "
                                    + s.period().zone(),
                    s.lateness(), c == null || c.model() == null ? "USAGE" : c.model().name(), s.currency(),
                    s.discountRate() == null ? 1.0 : s.discountRate(),
                    c == null || c.plans() == null ? List.of() : c.plans(), c == null ? null : c.defaultPlan(),
                    c == null ? null : c.costPerPeriod());
        }
    }

    /** A node of a cluster's tenant tree as the admin edits it. */
    public record TenantRow(String path, String parent, BigDecimal weight, BigDecimal discountRateOverride) {
    }

    /** One period today and under a proposed change, side by side. */
    public record ComparedPeriod(String period, Instant start, Instant end, Compared psi, Compared omega,
            Compared jain, Compared totalCharge, List<ComparedLine> lines) {
    }

    /** One tenant's line today and under the proposal. */
    public record ComparedLine(String tenant, Compared entitled, Compared rho, Compared balance, Compared charge) {
    }

    /** A number today and proposed, and whether they differ. */
    public record Compared(String today, String proposed) {

        static Compared of(BigDecimal today, BigDecimal proposed) {
            return new Compared(Format.decimal(today), Format.decimal(proposed));
        }

        /** Two amounts of money in {@code currency}, each with its currency's decimals. */
        static Compared money(BigDecimal today, BigDecimal proposed, String currency) {
            return new Compared(Format.money(today, currency), Format.money(proposed, currency));
        }

        static Compared of(Double today, Double proposed) {
            return new Compared(Format.number(today), Format.number(proposed));
        }

        public boolean changed() {
            return !today.equals(proposed);
        }
    }
}
