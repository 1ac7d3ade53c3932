package io.fairledger.core.grant;

import java.util.HashSet;
import java.util.List;

/**
 * A grant round: split {@code available} among {@code claimants} for the next {@code interval}.
 *
 * @param clusterCapacity
 *            per resource type, the capacity a claimant's held share g is measured against (dominant share
 *            {@code max_r a_r / clusterCapacity_r}); types with capacity 0 are ignored
 * @param available
 *            per resource type, what may be granted in this round (the cluster's capacity at the root, the parent's
 *            grant below it)
 * @param interval
 *            the grant interval D, in the time unit of the accumulated values; >= 0
 * @param claimants
 *            the tenants, with distinct ids
 */
public record GrantRequest(double[] clusterCapacity, double[] available, double interval, List<Claimant> claimants) {

    public GrantRequest {
        clusterCapacity = clusterCapacity.clone();
        available = available.clone();
        if (clusterCapacity.length == 0 || clusterCapacity.length != available.length) {
            throw new IllegalArgumentException("capacity and available need the same, non-zero number of types, got "
                    + clusterCapacity.length + " and " + available.length);
        }
        for (int r = 0; r < available.length; r++) {
            Claimant.requireFiniteNonNegative(clusterCapacity[r], "capacity of type " + r);
            Claimant.requireFiniteNonNegative(available[r], "available of type " + r);
        }
        Claimant.requireFiniteNonNegative(interval, "grant interval");
        claimants = List.copyOf(claimants);
        var ids = new HashSet<String>();
        for (Claimant c : claimants) {
            if (c.demand().length != available.length) {
                throw new IllegalArgumentException("demand of " + c.id() + " has " + c.demand().length
                        + " types, capacity has " + available.length);
            }
            if (!ids.add(c.id())) {
                throw new IllegalArgumentException("claimant " + c.id() + " appears twice");
            }
        }
    }

    @Override
    public double[] clusterCapacity() {
        return clusterCapacity.clone();
    }

    @Override
    public double[] available() {
        return available.clone();
    }
}
