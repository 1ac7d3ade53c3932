package io.fairledger.core.chargeback;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * A period shorter than the whole period of its schedule it was cut from (a registration in the middle of a month, a
 * change of schedule): a GROUP_BUY cluster's cost for it is the cost per period times {@code partMs / wholeMs}.
 *
 * @param partMs
 *            the period's length, > 0
 * @param wholeMs
 *            the whole period's length, > partMs
 */
public record Proration(long partMs, long wholeMs) {

    /** Decimals of the fraction as statements show it. */
    public static final int FRACTION_SCALE = 6;

    public Proration {
        if (partMs <= 0 || wholeMs <= partMs) {
            throw new IllegalArgumentException("a prorated period is a part of its whole: " + partMs + " of " + wholeMs
                    + " ms");
        }
    }

    /** {@code amount x partMs / wholeMs}, rounded HALF_EVEN to {@code scale} decimals. */
    public BigDecimal of(BigDecimal amount, int scale) {
        return amount.multiply(BigDecimal.valueOf(partMs)).divide(BigDecimal.valueOf(wholeMs), scale,
                RoundingMode.HALF_EVEN);
    }

    /** {@code partMs / wholeMs} rounded HALF_EVEN to {@link #FRACTION_SCALE} decimals, as statements show it. */
    public BigDecimal fraction() {
        return BigDecimal.valueOf(partMs).divide(BigDecimal.valueOf(wholeMs), MathContext.DECIMAL64)
                .setScale(FRACTION_SCALE, RoundingMode.HALF_EVEN);
    }
}
