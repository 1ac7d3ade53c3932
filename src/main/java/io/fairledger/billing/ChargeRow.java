package io.fairledger.billing;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * One charge of a closed statement: a tenant's use of one {@link Resource} in a period, or a correction of an earlier
 * closed period (then {@code resource}, {@code plan}, the quantity and the prices are null). The costs are in
 * {@code currency}: {@code listCost} at the default plan's price, {@code contractedCost} at the tenant's own plan's,
 * {@code billedCost} what the tenant pays (its statement charge's share, or the adjustment). docs/billing.md.
 *
 * @param billingPeriod the statement that bills it (and its bounds)
 * @param chargePeriod  the period the use happened in: the billing period, or the corrected one
 * @param reason        why the correction was made (null for a use)
 */
public record ChargeRow(String cluster, String tenant, String billingPeriod, Instant billingStart, Instant billingEnd,
        String chargePeriod, Instant chargeStart, Instant chargeEnd, Resource resource, String plan,
        BigDecimal quantity, BigDecimal listUnitPrice, BigDecimal contractedUnitPrice, BigDecimal listCost,
        BigDecimal contractedCost, BigDecimal billedCost, String currency, String reason) {

    /** True for a correction of an earlier closed period (an adjustment line). */
    public boolean correction() {
        return resource == null;
    }

    /** The invoice that bills it: one per tenant and closed period. */
    public String invoiceId() {
        return invoiceId(cluster, tenant, billingPeriod);
    }

    /** The id of the invoice of {@code tenant} for {@code period}. */
    public static String invoiceId(String cluster, String tenant, String period) {
        return cluster + "/" + tenant + "/" + period;
    }
}
