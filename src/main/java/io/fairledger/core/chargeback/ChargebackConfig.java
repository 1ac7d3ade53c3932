package io.fairledger.core.chargeback;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Objects;

import io.fairledger.core.model.PricePlan;

/**
 * How one cluster is billed.
 *
 * @param model
 *            USAGE or GROUP_BUY
 * @param plans
 *            price plans by name (USAGE)
 * @param defaultPlan
 *            the plan of tenants that name none (USAGE); must be in {@code plans} for USAGE
 * @param costPerPeriod
 *            the cluster's cost for each period (GROUP_BUY)
 * @param currencyScale
 *            decimals of the currency (2 for cents)
 */
public record ChargebackConfig(ChargeModel model, Map<String, PricePlan> plans, String defaultPlan,
        BigDecimal costPerPeriod, int currencyScale) {

    public ChargebackConfig {
        Objects.requireNonNull(model, "charge model");
        plans = Map.copyOf(plans);
        if (model == ChargeModel.USAGE && !plans.containsKey(defaultPlan)) {
            throw new IllegalArgumentException("USAGE needs the default price plan '" + defaultPlan + "' among "
                    + plans.keySet());
        }
        if (model == ChargeModel.GROUP_BUY && (costPerPeriod == null || costPerPeriod.signum() < 0)) {
            throw new IllegalArgumentException("GROUP_BUY needs a cost per period >= 0, got " + costPerPeriod);
        }
        if (currencyScale < 0 || currencyScale > 8) {
            throw new IllegalArgumentException("currency scale must be 0..8, got " + currencyScale);
        }
    }

    /** USAGE with one price plan, in cents. */
    public static ChargebackConfig usage(PricePlan plan) {
        return new ChargebackConfig(ChargeModel.USAGE, Map.of(plan.name(), plan), plan.name(), BigDecimal.ZERO, 2);
    }

    /** GROUP_BUY at {@code cost} per period, in cents. */
    public static ChargebackConfig groupBuy(BigDecimal cost) {
        return new ChargebackConfig(ChargeModel.GROUP_BUY, Map.of(), "", cost, 2);
    }
}
