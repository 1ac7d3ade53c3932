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
 */
public record Statement(String clusterId, Period period, ChargeModel model, List<TenantStatement> lines) {

    public Statement {
        lines = List.copyOf(lines);
    }

    /** Sum of every line's total: the charges and the adjustment lines carried (inner lines are never charged). */
    public BigDecimal totalCharge() {
        return lines.stream().map(TenantStatement::total).reduce(BigDecimal.ZERO, BigDecimal::add);
    }
}
