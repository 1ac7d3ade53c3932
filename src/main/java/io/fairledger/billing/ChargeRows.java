package io.fairledger.billing;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import io.fairledger.accounting.StatementView;
import io.fairledger.core.chargeback.ChargeModel;
import io.fairledger.core.chargeback.Chargeback;
import io.fairledger.core.chargeback.ChargebackConfig;
import io.fairledger.core.model.PricePlan;
import io.fairledger.core.model.TenantConfig;
import io.fairledger.core.replay.ReplayConfig;
import io.fairledger.errors.Conflict;
import io.fairledger.tenancy.LedgerSettings;

/**
 * The one mapping of a closed statement to charges, which the FOCUS export and the invoices both print: per billed
 * tenant (the leaves; inner tenants are never charged) one row per {@link Resource} (GPU-hours only when the cluster
 * has GPUs), then one correction row per adjustment line. Prices are those of the settings the period was closed
 * under. A tenant's charge is split over its resources in proportion to their cost at its plan's prices (each part
 * rounded down, the remaining cents to the largest remainders: {@link Chargeback#apportion}), so the rows of a
 * statement line sum to its total exactly. Only {@code USAGE} statements have per-resource prices; a
 * {@code GROUP_BUY} statement is refused (docs/billing.md).
 */
public final class ChargeRows {

    private ChargeRows() {
    }

    /**
     * The charges of {@code closed} for the tenants {@code billed} accepts.
     *
     * @param keptUnder the settings the period was closed under
     * @param periods   every period of the cluster by id, for the bounds of the periods adjustments correct
     * @throws Conflict for a GROUP_BUY statement
     */
    public static List<ChargeRow> of(StatementView closed, LedgerSettings keptUnder, Map<String, StatementView> periods,
            Predicate<String> billed) {
        if (!StatementView.CLOSED.equals(closed.state())) {
            throw new IllegalArgumentException("period " + closed.period() + " is not closed");
        }
        if (!ChargeModel.USAGE.name().equals(closed.model())) {
            throw new Conflict("period " + closed.period() + " of cluster '" + closed.cluster() + "' is billed "
                    + closed.model() + ", which has no price per resource: only USAGE periods are exported "
                    + "and invoiced");
        }
        ReplayConfig config = keptUnder.toReplayConfig(closed.cluster(), closed.end());
        ChargebackConfig chargeback = config.chargeback();
        PricePlan list = chargeback.plans().get(chargeback.defaultPlan());
        Map<String, String> plans = new HashMap<>();
        for (TenantConfig t : config.cluster().tenants()) {
            plans.put(t.path().toString(), t.pricePlan());
        }
        boolean gpus = keptUnder.capacity().gpus() > 0
                || closed.lines().stream().anyMatch(l -> l.gpuSeconds().signum() > 0);
        List<Resource> resources = gpus ? List.of(Resource.values()) : List.of(Resource.VCORE, Resource.MEMORY);
        List<ChargeRow> rows = new ArrayList<>();
        for (StatementView.Line line : closed.lines()) {
            if (line.inner() || !billed.test(line.tenant())) {
                continue;
            }
            PricePlan plan = Chargeback.planOf(chargeback, plans.get(line.tenant()));
            rows.addAll(uses(closed, line, resources, list, plan));
            for (StatementView.Adjustment a : line.adjustments()) {
                StatementView corrected = periods.get(a.correctedPeriod());
                if (corrected == null) {
                    throw new IllegalStateException("period " + closed.period() + " corrects period "
                            + a.correctedPeriod() + ", which cluster '" + closed.cluster() + "' does not list");
                }
                rows.add(new ChargeRow(closed.cluster(), line.tenant(), closed.period(), closed.start(), closed.end(),
                        corrected.period(), corrected.start(), corrected.end(), null, null, null, null, null,
                        a.amount(), a.amount(), a.amount(), closed.currency(), a.reason()));
            }
        }
        return rows;
    }

    private static List<ChargeRow> uses(StatementView s, StatementView.Line line, List<Resource> resources,
            PricePlan list, PricePlan plan) {
        List<BigDecimal> contracted = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        for (Resource r : resources) {
            contracted.add(r.price(plan).multiply(r.quantity(line), MathContext.DECIMAL128));
            keys.add(r.name());
        }
        List<BigDecimal> billed = split(line.charge(), contracted, keys);
        List<ChargeRow> rows = new ArrayList<>();
        for (int i = 0; i < resources.size(); i++) {
            Resource r = resources.get(i);
            BigDecimal quantity = r.quantity(line);
            rows.add(new ChargeRow(s.cluster(), line.tenant(), s.period(), s.start(), s.end(), s.period(), s.start(),
                    s.end(), r, plan.name(), quantity, r.price(list), r.price(plan),
                    r.price(list).multiply(quantity, MathContext.DECIMAL128), contracted.get(i), billed.get(i),
                    s.currency(), null));
        }
        return rows;
    }

    /** {@code charge} in parts proportional to {@code weights}, summing to it exactly, at its scale. */
    private static List<BigDecimal> split(BigDecimal charge, List<BigDecimal> weights, List<String> keys) {
        int scale = charge.scale();
        if (charge.signum() == 0 || weights.stream().allMatch(w -> w.signum() == 0)) {
            // nothing to split, or (prices of 0 under a charge, which USAGE never states) nothing to split it by
            List<BigDecimal> parts = new ArrayList<>();
            for (int i = 0; i < weights.size(); i++) {
                parts.add(i == 0 ? charge : BigDecimal.ZERO.setScale(scale));
            }
            return parts;
        }
        if (charge.signum() < 0) {
            return split(charge.negate(), weights, keys).stream().map(BigDecimal::negate).toList();
        }
        return Chargeback.apportion(charge, weights, keys, scale);
    }
}
