package io.fairledger.billing;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

import io.fairledger.accounting.StatementView;
import io.fairledger.core.model.PricePlan;

/**
 * A resource a tenant is billed for, as a SKU: its name, its unit in FOCUS's unit format (a GB of the price plans is
 * 1024 MB, YARN's MB being MiB, hence {@code GiB-Hours}), its quantity on a statement line and its price in a plan.
 */
public enum Resource {
    /** Vcore-hours. */
    VCORE("vcore-hours", "Core-Hours", BigDecimal.valueOf(3600)),
    /** Memory GB(1024 MB)-hours. */
    MEMORY("GB-hours", "GiB-Hours", BigDecimal.valueOf(3600L * 1024)),
    /** GPU-hours. */
    GPU("GPU-hours", "GPU-Hours", BigDecimal.valueOf(3600));

    /** Decimals of quantities: the statements' usage scale. */
    public static final int QUANTITY_SCALE = 6;

    private final String label;
    private final String unit;
    private final BigDecimal secondsPerUnit;

    Resource(String label, String unit, BigDecimal secondsPerUnit) {
        this.label = label;
        this.unit = unit;
        this.secondsPerUnit = secondsPerUnit;
    }

    /** The name people read, as in the price plans: {@code vcore-hours}, {@code GB-hours}, {@code GPU-hours}. */
    public String label() {
        return label;
    }

    /** The unit in FOCUS's unit format. */
    public String unit() {
        return unit;
    }

    /** The line's quantity in {@link #unit()}, rounded HALF_EVEN to {@link #QUANTITY_SCALE} decimals. */
    public BigDecimal quantity(StatementView.Line line) {
        BigDecimal seconds = switch (this) {
            case VCORE -> line.vcoreSeconds();
            case MEMORY -> line.memoryMbSeconds();
            case GPU -> line.gpuSeconds();
        };
        return seconds.divide(secondsPerUnit, MathContext.DECIMAL128).setScale(QUANTITY_SCALE,
                RoundingMode.HALF_EVEN);
    }

    /** The price of one unit in {@code plan}. */
    public BigDecimal price(PricePlan plan) {
        return switch (this) {
            case VCORE -> plan.perVcoreHour();
            case MEMORY -> plan.perGbHour();
            case GPU -> plan.perGpuHour();
        };
    }
}
