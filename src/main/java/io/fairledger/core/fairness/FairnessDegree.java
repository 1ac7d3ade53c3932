package io.fairledger.core.fairness;

/**
 * A tenant's fairness degree {@code rho = A / E} (LTRF eq. 3, Tang et al., 2014; docs/domain.md section 3): actual over
 * entitled accumulated usage. 1 when both are 0; when {@code E = 0 < A} the tenant has no entitlement and {@code rho}
 * is reported as such, not as a number.
 *
 * @param value
 *            A / E, 1 when both are 0, NaN when there is no entitlement
 * @param noEntitlement
 *            true when E = 0 < A
 */
public record FairnessDegree(double value, boolean noEntitlement) {

    /** Accumulated values below this (capacity-ms) count as zero: far below one millicore-second of a big cluster. */
    public static final double EPSILON = 1e-9;

    /** The degree of a tenant with actual {@code actual} and entitled {@code entitled} accumulated usage. */
    public static FairnessDegree of(double actual, double entitled) {
        if (!(actual >= 0) || !(entitled >= 0)) {
            throw new IllegalArgumentException("accumulated values must be >= 0, got A=" + actual + " E=" + entitled);
        }
        if (entitled <= EPSILON) {
            return actual <= EPSILON ? new FairnessDegree(1.0, false) : new FairnessDegree(Double.NaN, true);
        }
        return new FairnessDegree(actual / entitled, false);
    }
}
