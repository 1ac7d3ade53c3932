package io.fairledger.core.stats;

/**
 * Jain's fairness index {@code (sum x)^2 / (n * sum x^2)} over non-negative values: 1 when all are equal, 1/n when
 * one value holds everything. Used for the papers' fairness (allocation over request, seed 000 section 5) and
 * equality (within demand classes) and for LTRF's demand-fraction fairness (DOMAIN.md sections 3 and 9).
 *
 * <p>
 * Decision where the papers are silent: an empty set, or one where every value is 0, has index 1 (nobody is treated
 * worse than anybody else). O(n), no allocation.
 */
public final class JainIndex {

    private JainIndex() {
    }

    /** Jain's index of {@code values}; every value must be finite and non-negative. */
    public static double of(double[] values) {
        double sum = 0;
        double sumOfSquares = 0;
        for (double v : values) {
            if (!(v >= 0) || Double.isInfinite(v)) {
                throw new IllegalArgumentException("Jain's index needs finite non-negative values, got " + v);
            }
            sum += v;
            sumOfSquares += v * v;
        }
        if (sumOfSquares == 0) {
            return 1.0;
        }
        return sum * sum / (values.length * sumOfSquares);
    }
}
