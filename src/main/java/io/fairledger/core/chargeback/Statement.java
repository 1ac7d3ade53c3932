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

    /** Sum of the charges, without adjustments. */
    public BigDecimal totalCharge() {
        return lines.stream().map(TenantStatement::charge).reduce(BigDecimal.ZERO, BigDecimal::add);
    }
}
