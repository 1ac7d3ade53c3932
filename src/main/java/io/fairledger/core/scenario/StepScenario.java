package io.fairledger.core.scenario;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A step scenario in the shape of LTRF's Table 1 ({@code table1.json}; docs/domain.md section 11): one resource of
 * {@code capacity}, tenants with weights, new demand per tenant per step; each step lasts one time unit.
 *
 * @param capacity
 *            the resource's capacity, > 0
 * @param weights
 *            tenant name to weight (>= 0), in output order
 * @param steps
 *            number of steps, > 0
 * @param newDemand
 *            tenant name to its new demand per step ({@code steps} values, each >= 0)
 * @param unmetDemandCarriesOver
 *            whether demand not granted in a step is added to the next step's
 */
public record StepScenario(double capacity, Map<String, Double> weights, int steps, Map<String, List<Double>> newDemand,
        boolean unmetDemandCarriesOver) {

    public StepScenario {
        if (!(capacity > 0) || Double.isInfinite(capacity)) {
            throw new IllegalArgumentException("capacity must be finite and > 0, got " + capacity);
        }
        if (weights == null || weights.isEmpty()) {
            throw new IllegalArgumentException("a scenario needs at least one tenant");
        }
        if (steps <= 0) {
            throw new IllegalArgumentException("steps must be > 0, got " + steps);
        }
        weights = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(weights));
        for (var e : weights.entrySet()) {
            Double w = e.getValue();
            if (w == null || !(w >= 0) || w.isInfinite()) {
                throw new IllegalArgumentException("weight of tenant " + e.getKey() + " must be finite and >= 0, got "
                        + w);
            }
        }
        if (newDemand == null) {
            throw new IllegalArgumentException("newDemand is missing");
        }
        var demands = new LinkedHashMap<String, List<Double>>();
        for (String t : weights.keySet()) {
            List<Double> d = newDemand.get(t);
            if (d == null || d.size() != steps) {
                throw new IllegalArgumentException("newDemand of tenant " + t + " must have " + steps + " values, got "
                        + (d == null ? "none" : d.size()));
            }
            for (Double v : d) {
                if (v == null || !(v >= 0) || v.isInfinite()) {
                    throw new IllegalArgumentException("newDemand of tenant " + t + " must be finite and >= 0, got "
                            + v);
                }
            }
            demands.put(t, List.copyOf(d));
        }
        for (String t : newDemand.keySet()) {
            if (!weights.containsKey(t)) {
                throw new IllegalArgumentException("newDemand names tenant " + t + " which has no weight");
            }
        }
        newDemand = java.util.Collections.unmodifiableMap(demands);
    }
}
