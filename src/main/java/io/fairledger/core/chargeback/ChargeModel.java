package io.fairledger.core.chargeback;

/** How a cluster's tenants are charged (docs/domain.md section 8). */
public enum ChargeModel {
    /** Pay as you use: price x counted usage. */
    USAGE,
    /** The period's cost split by share, plus settlements from borrowers to lenders that sum to zero. */
    GROUP_BUY
}
