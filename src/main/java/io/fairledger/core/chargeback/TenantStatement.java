package io.fairledger.core.chargeback;

import java.math.BigDecimal;
import java.util.List;

import io.fairledger.core.fairness.FairnessDegree;
import io.fairledger.core.model.TenantPath;

/**
 * One tenant's line of a period statement (docs/domain.md section 8). Usage values are capacity-hours (share x hours),
 * rounded to {@link Chargeback#USAGE_SCALE} decimals; resource-seconds are exact.
 *
 * @param tenant
 *            the tenant
 * @param inner
 *            true for an inner node of the tenant tree: its values are its subtree's, its lending is at its own level
 *            among its siblings, and it is never charged (its leaves are)
 * @param resourceSeconds
 *            vcore-seconds, MB-seconds, GPU-seconds
 * @param counted
 *            counted usage F
 * @param actual
 *            actual usage A
 * @param entitled
 *            entitled usage E
 * @param rho
 *            fairness degree A / E
 * @param lent
 *            lent to siblings, matched: integral of {@code u M / U}
 * @param borrowed
 *            borrowed above share, raw: integral of {@code b = max(g - S, 0)}
 * @param owed
 *            the part of {@code borrowed} siblings lent, matched: integral of {@code b M / B}
 * @param balance
 *            lending balance {@code lent - owed}, positive for a net lender
 * @param charge
 *            the period's charge (negative is a credit)
 * @param adjustments
 *            corrections of closed periods
 */
public record TenantStatement(TenantPath tenant, boolean inner, List<BigDecimal> resourceSeconds, BigDecimal counted,
        BigDecimal actual, BigDecimal entitled, FairnessDegree rho, BigDecimal lent, BigDecimal borrowed,
        BigDecimal owed, BigDecimal balance, BigDecimal charge, List<AdjustmentLine> adjustments) {

    public TenantStatement {
        resourceSeconds = List.copyOf(resourceSeconds);
        adjustments = List.copyOf(adjustments);
    }

    /**
     * True for the own line of a tenant ({@link TenantPath#isOwnLine}): the tasks the tenant ran itself, billed as a
     * leaf's (docs/domain.md section 2, "Own lines").
     */
    public boolean own() {
        return tenant.isOwnLine();
    }

    /** Charge plus adjustments. */
    public BigDecimal total() {
        BigDecimal t = charge;
        for (AdjustmentLine a : adjustments) {
            t = t.add(a.amount());
        }
        return t;
    }
}
