package io.fairledger.core.grant;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The result of a grant round.
 *
 * @param grants
 *            one per claimant, in the request's order
 * @param order
 *            claimant ids by {@code accumulated / weight} ascending, weight-0 claimants last, ties by id (LTRF
 *            Algorithm 1: who gets the next container)
 */
public record Grants(List<Grant> grants, List<String> order) {

    public Grants {
        grants = List.copyOf(grants);
        order = List.copyOf(order);
    }

    /**
     * What one claimant is granted.
     *
     * @param id
     *            the claimant
     * @param allocation
     *            per resource type, in capacity units; never above its demand
     * @param share
     *            the dominant share of the allocation, in the request's share units
     */
    public record Grant(String id, double[] allocation, double share) {
        public Grant {
            allocation = allocation.clone();
        }

        @Override
        public double[] allocation() {
            return allocation.clone();
        }
    }

    /** Grants by claimant id. */
    public Map<String, Grant> byId() {
        return grants.stream().collect(Collectors.toMap(Grant::id, Function.identity()));
    }
}
