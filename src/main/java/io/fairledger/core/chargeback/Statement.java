package io.fairledger.core.chargeback;

import java.math.BigDecimal;
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
 * @param prorated
 *            under GROUP_BUY, how much of its whole period a short period is (its cost is that part of the cost per
 *            period); null for a whole period and under USAGE
 */
public record Statement(String clusterId, Period period, ChargeModel model, List<TenantStatement> lines,
        Proration prorated) {

    public Statement {
        lines = List.copyOf(lines);
    }

    /** The statement of a whole period. */
    public Statement(String clusterId, Period period, ChargeModel model, List<TenantStatement> lines) {
        this(clusterId, period, model, lines, null);
    }

    /** Sum of every line's total: the charges and the adjustment lines carried (inner lines are never charged). */
    public BigDecimal totalCharge() {
        return lines.stream().map(TenantStatement::total).reduce(BigDecimal.ZERO, BigDecimal::add);
    }
}
