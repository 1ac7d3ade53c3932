package io.fairledger.core.chargeback;

import java.math.BigDecimal;

import io.fairledger.core.model.TenantPath;

/**
 * A correction of a closed period, carried in an open period's statement (docs/domain.md section 8).
 *
 * @param correctedPeriod
 *            the id of the closed period this corrects
 * @param tenant
 *            who is charged (positive) or credited (negative)
 * @param amount
 *            recomputed charge minus the closed statement's charge
 * @param reason
 *            why, for the reader of the statement
 */
public record AdjustmentLine(String correctedPeriod, TenantPath tenant, BigDecimal amount, String reason) {
}
