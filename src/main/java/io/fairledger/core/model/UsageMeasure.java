package io.fairledger.core.model;

/**
 * How a resource vector becomes the scalar share {@code g} (DOMAIN.md section 2).
 */
public sealed interface UsageMeasure {

    /** The share of {@code amount} against {@code capacity}; types with zero capacity are ignored. */
    double share(ResourceVector amount, ResourceVector capacity);

    /** Dominant share {@code max_r alloc_r / R_r} (DRF), the default. */
    record Dominant() implements UsageMeasure {
        @Override
        public double share(ResourceVector amount, ResourceVector capacity) {
            double best = 0;
            for (int r = 0; r < ResourceVector.TYPES; r++) {
                long cap = capacity.get(r);
                if (cap > 0) {
                    best = Math.max(best, (double) amount.get(r) / cap);
                }
            }
            return best;
        }
    }

    /**
     * Weighted sum {@code sum_r delta_r alloc_r / R_r} with admin-set weights (LTRF eq. 9, seed 004), in the order
     * millicores, memory_mb, gpus.
     */
    record WeightedSum(double vcoreWeight, double memoryWeight, double gpuWeight) implements UsageMeasure {
        public WeightedSum {
            for (double d : new double[]{vcoreWeight, memoryWeight, gpuWeight}) {
                if (!(d >= 0) || Double.isInfinite(d)) {
                    throw new IllegalArgumentException("resource weights must be finite and >= 0, got " + d);
                }
            }
        }

        @Override
        public double share(ResourceVector amount, ResourceVector capacity) {
            double[] delta = {vcoreWeight, memoryWeight, gpuWeight};
            double sum = 0;
            for (int r = 0; r < ResourceVector.TYPES; r++) {
                long cap = capacity.get(r);
                if (cap > 0) {
                    sum += delta[r] * amount.get(r) / cap;
                }
            }
            return sum;
        }
    }
}
