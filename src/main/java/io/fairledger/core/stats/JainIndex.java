package io.fairledger.core.stats;

/**
 * Jain's fairness index {@code (sum x)^2 / (n * sum x^2)} over non-negative values: 1 when all are equal, 1/n when
 * one value holds everything. Used for the papers' fairness (allocation over request, Justice (Dimopoulos et al., 2019)
 * section 5) and equality (within demand classes) and for LTRF's demand-fraction fairness (docs/domain.md sections 3
 * and 9).
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
        return ofRepeated(values, null, 0, values.length);
    }

    /**
     * Jain's index of {@code values[from..to)} where {@code values[k]} occurs {@code counts[k] >= 0} times ({@code
     * counts} null: once each): the simulator's jobs that share one allocation are one entry. O(to - from).
     */
    public static double ofRepeated(double[] values, int[] counts, int from, int to) {
        double sum = 0;
        double sumOfSquares = 0;
        long n = 0;
        for (int k = from; k < to; k++) {
            double v = values[k];
            if (!(v >= 0) || Double.isInfinite(v)) {
                throw new IllegalArgumentException("Jain's index needs finite non-negative values, got " + v);
            }
            int c = counts == null ? 1 : counts[k];
            if (c < 0) {
                throw new IllegalArgumentException("a count must be >= 0, got " + c);
            }
            sum += c * v;
            sumOfSquares += c * v * v;
            n += c;
        }
        if (sumOfSquares == 0) {
            return 1.0;
        }
        return sum * sum / (n * sumOfSquares);
    }
}
