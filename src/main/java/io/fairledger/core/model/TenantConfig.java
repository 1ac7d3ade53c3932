package io.fairledger.core.model;

import java.util.OptionalDouble;

/**
 * One configured node of the tenant tree (docs/domain.md section 1).
 *
 * @param path
 *            the node; not the root
 * @param weight
 *            {@code w >= 0}; 0 means no entitlement, the tenant may only borrow
 * @param discountOverride
 *            the discount rate eta for this tenant, overriding the cluster's (LTRF eq. 7); empty to inherit
 * @param pricePlan
 *            the name of the price plan this tenant is billed under; empty string for the cluster default
 */
public record TenantConfig(TenantPath path, double weight, OptionalDouble discountOverride, String pricePlan) {

    /** Default weight of a tenant that is not configured (docs/domain.md section 1). */
    public static final double DEFAULT_WEIGHT = 1.0;

    public TenantConfig {
        if (path == null || path.isRoot()) {
            throw new IllegalArgumentException("tenant path must be given and not the root");
        }
        if (!(weight >= 0) || Double.isInfinite(weight)) {
            throw new IllegalArgumentException("weight of " + path + " must be finite and >= 0, got " + weight);
        }
        if (discountOverride == null) {
            discountOverride = OptionalDouble.empty();
        }
        if (discountOverride.isPresent()) {
            double d = discountOverride.getAsDouble();
            if (!(d >= 0 && d <= 1)) {
                throw new IllegalArgumentException("discount rate of " + path + " must be in [0,1], got " + d);
            }
        }
        if (pricePlan == null) {
            pricePlan = "";
        }
    }

    /** A tenant with a weight, the cluster's discount rate and the default price plan. */
    public static TenantConfig of(String path, double weight) {
        return new TenantConfig(TenantPath.parse(path), weight, OptionalDouble.empty(), "");
    }
}
