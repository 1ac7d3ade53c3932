package io.fairledger.core.model;

/**
 * How a resource vector becomes the scalar share {@code g} (docs/domain.md section 2).
 */
public sealed interface UsageMeasure {

    /** The share of {@code amount} against {@code capacity}; types with zero capacity are ignored. */
    default double share(ResourceVector amount, ResourceVector capacity) {
        return share(amount.millicores(), amount.memoryMilliMb(), amount.gpus(), capacity);
    }

    /** The share of the given amounts against {@code capacity}, without building a vector (the ledger's hot path). */
    double share(long millicores, long memory, long gpus, ResourceVector capacity);

    /** Dominant share {@code max_r alloc_r / R_r} (DRF), the default. */
    record Dominant() implements UsageMeasure {
        @Override
        public double share(long millicores, long memory, long gpus, ResourceVector capacity) {
            double best = 0;
            if (capacity.millicores() > 0) {
                best = (double) millicores / capacity.millicores();
            }
            if (capacity.memoryMilliMb() > 0) {
                best = Math.max(best, (double) memory / capacity.memoryMilliMb());
            }
            if (capacity.gpus() > 0) {
                best = Math.max(best, (double) gpus / capacity.gpus());
            }
            return best;
        }
    }

    /**
     * Weighted sum {@code sum_r delta_r alloc_r / R_r} with admin-set weights (LTRF eq. 9, Tang et al., 2014), in the
     * order millicores, memory_mb, gpus.
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
        public double share(long millicores, long memory, long gpus, ResourceVector capacity) {
            double sum = 0;
            if (capacity.millicores() > 0) {
                sum += vcoreWeight * millicores / capacity.millicores();
            }
            if (capacity.memoryMilliMb() > 0) {
                sum += memoryWeight * memory / capacity.memoryMilliMb();
            }
            if (capacity.gpus() > 0) {
                sum += gpuWeight * gpus / capacity.gpus();
            }
            return sum;
        }
    }
}
