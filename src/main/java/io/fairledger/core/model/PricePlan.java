package io.fairledger.core.model;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * Prices per resource unit-hour, in the cluster's currency (docs/domain.md section 8, USAGE model).
 *
 * @param name
 *            the plan's name, referenced by {@link TenantConfig#pricePlan()}
 * @param perVcoreHour
 *            price of one vcore (1000 millicores) for one hour
 * @param perGbHour
 *            price of 1024 MB of memory for one hour
 * @param perGpuHour
 *            price of one GPU for one hour
 */
public record PricePlan(String name, BigDecimal perVcoreHour, BigDecimal perGbHour, BigDecimal perGpuHour) {

    public PricePlan {
        Objects.requireNonNull(name, "price plan name");
        for (BigDecimal p : new BigDecimal[]{perVcoreHour, perGbHour, perGpuHour}) {
            if (p == null || p.signum() < 0) {
                throw new IllegalArgumentException("prices of plan '" + name + "' must be given and >= 0, got " + p);
            }
        }
    }
}
