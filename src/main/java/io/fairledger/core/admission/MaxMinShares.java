package io.fairledger.core.admission;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * Max-min fair shares of a divisible capacity among jobs with caps (water-filling): every job gets
 * {@code min(cap, level)} with the level chosen so the shares sum to {@code min(capacity, sum of caps)}. The fluid
 * fair share of docs/domain.md section 11 for {@link BaselineFairShare} and {@link ReactiveFairShare}. O(n log n).
 */
public final class MaxMinShares {

    private MaxMinShares() {
    }

    /** Shares for {@code caps} (each positive) out of {@code capacity} (non-negative), real-valued. */
    public static double[] of(int[] caps, double capacity) {
        if (!(capacity >= 0)) {
            throw new IllegalArgumentException("capacity must be >= 0, got " + capacity);
        }
        Integer[] order = IntStream.range(0, caps.length).boxed().toArray(Integer[]::new);
        Arrays.sort(order, Comparator.comparingInt(i -> caps[i]));
        double[] shares = new double[caps.length];
        double left = capacity;
        for (int k = 0; k < order.length; k++) {
            int i = order[k];
            if (caps[i] < 1) {
                throw new IllegalArgumentException("cap must be >= 1, got " + caps[i]);
            }
            double level = left / (order.length - k);
            shares[i] = Math.min(caps[i], level);
            left -= shares[i];
        }
        return shares;
    }
}
