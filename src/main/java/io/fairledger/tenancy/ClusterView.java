package io.fairledger.tenancy;

import java.math.BigDecimal;

/** A registered cluster as the admin API shows it and the audit trail records it. */
public record ClusterView(String id, String name, ResourceManagerKind resourceManager, BigDecimal discountRate) {

    public static ClusterView of(ClusterEntity c) {
        return new ClusterView(c.id, c.name, c.resourceManager, c.discountRate);
    }
}
