package io.fairledger.core.chargeback;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * A cluster's statement for one period: one line per billed tenant. Immutable.
 *
 * @param clusterId
 *            the cluster
 * @param period
 *            the period
 * @param model
 *            the charge model used
 * @param lines
 *            tenant lines, by tenant path
 */
public record Statement(String clusterId, Period period, ChargeModel model, List<TenantStatement> lines) {

    public Statement {
        lines = List.copyOf(lines);
    }

    /** Sum of the charges, without adjustments. */
    public BigDecimal totalCharge() {
        return lines.stream().map(TenantStatement::charge).reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    /** A copy with {@code extra} adjustment lines added to their tenants' lines (tenants without a line are skipped). */
    public Statement withAdjustments(List<AdjustmentLine> extra) {
        List<TenantStatement> out = new ArrayList<>(lines.size());
        for (TenantStatement l : lines) {
            List<AdjustmentLine> adj = new ArrayList<>(l.adjustments());
            for (AdjustmentLine a : extra) {
                if (a.tenant().equals(l.tenant())) {
                    adj.add(a);
                }
            }
            out.add(new TenantStatement(l.tenant(), l.resourceSeconds(), l.counted(), l.actual(), l.entitled(),
                    l.rho(), l.lent(), l.borrowed(), l.balance(), l.charge(), adj));
        }
        return new Statement(clusterId, period, model, out);
    }
}
