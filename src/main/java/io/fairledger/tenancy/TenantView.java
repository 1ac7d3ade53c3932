package io.fairledger.tenancy;

import java.math.BigDecimal;

/** A tenant as the admin API shows it and the audit trail records it. */
public record TenantView(String cluster, String path, String parent, BigDecimal weight,
        BigDecimal discountRateOverride) {

    public static TenantView of(TenantEntity t) {
        return new TenantView(t.clusterId, t.path, t.parentPath, t.weight, t.discountRateOverride);
    }
}
