package io.fairledger.core.model;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;

/**
 * Everything the ledger of one cluster needs besides the events.
 *
 * @param clusterId
 *            the resource manager's id
 * @param registeredAt
 *            epoch millis the cluster was registered: the start of FULL memory and of the first period
 * @param capacity
 *            capacity at registration; later changes arrive as events
 * @param tenants
 *            configured tenant tree nodes; missing ancestors are created with the default weight
 * @param discountRate
 *            the cluster's eta (LTRF eq. 7), {@code 0 <= eta <= 1}; 1 means no discount
 * @param memory
 *            how far back long-term reaches
 * @param par
 *            the early-bird rule
 * @param measure
 *            how a resource vector becomes a share
 * @param rootQuantumMs
 *            {@code Q0} of the adaptive hierarchical time quantum (LTRF 5.2.1); 0 disables the top-up
 * @param quantumRefreshMs
 *            how often quanta are re-derived bottom-up from completed tasks; must be > 0
 */
public record ClusterConfig(String clusterId, long registeredAt, ResourceVector capacity, List<TenantConfig> tenants,
        double discountRate, MemoryMode memory, ParPolicy par, UsageMeasure measure, long rootQuantumMs,
        long quantumRefreshMs) {

    public ClusterConfig {
        if (clusterId == null || clusterId.isBlank()) {
            throw new IllegalArgumentException("cluster id must not be blank");
        }
        Objects.requireNonNull(capacity, "capacity");
        tenants = List.copyOf(tenants);
        if (!inPathOrder(tenants)) {
            var seen = new HashSet<TenantPath>(tenants.size() * 4 / 3 + 1);
            for (TenantConfig t : tenants) {
                if (!seen.add(t.path())) {
                    throw new IllegalArgumentException("tenant " + t.path() + " configured twice in cluster "
                            + clusterId);
                }
            }
        }
        if (!(discountRate >= 0 && discountRate <= 1)) {
            throw new IllegalArgumentException("discount rate must be in [0,1], got " + discountRate);
        }
        Objects.requireNonNull(memory, "memory mode");
        Objects.requireNonNull(par, "PAR policy");
        Objects.requireNonNull(measure, "usage measure");
        if (rootQuantumMs < 0) {
            throw new IllegalArgumentException("root quantum must be >= 0 ms, got " + rootQuantumMs);
        }
        if (quantumRefreshMs <= 0) {
            throw new IllegalArgumentException("quantum refresh interval must be > 0 ms, got " + quantumRefreshMs);
        }
    }

    /**
     * Whether every tenant's path comes after the one before it, so that none is configured twice without a set of
     * every path (a tenant tree read in path order, at every settings change).
     */
    private static boolean inPathOrder(List<TenantConfig> tenants) {
        for (int i = 1; i < tenants.size(); i++) {
            if (tenants.get(i - 1).path().compareTo(tenants.get(i).path()) >= 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * A configuration with the defaults of docs/domain.md: no discount, ROUNDS of 24 h, PAR MAX, dominant share, no
     * time quantum, refresh every second.
     */
    public static ClusterConfig defaults(String clusterId, long registeredAt, ResourceVector capacity,
            List<TenantConfig> tenants) {
        return new ClusterConfig(clusterId, registeredAt, capacity, tenants, 1.0, MemoryMode.defaultRounds(),
                ParPolicy.MAX, new UsageMeasure.Dominant(), 0, 1000);
    }

    /** A copy with another memory mode. */
    public ClusterConfig withMemory(MemoryMode m) {
        return new ClusterConfig(clusterId, registeredAt, capacity, tenants, discountRate, m, par, measure,
                rootQuantumMs, quantumRefreshMs);
    }

    /** A copy with another PAR policy. */
    public ClusterConfig withPar(ParPolicy p) {
        return new ClusterConfig(clusterId, registeredAt, capacity, tenants, discountRate, memory, p, measure,
                rootQuantumMs, quantumRefreshMs);
    }

    /** A copy with another discount rate. */
    public ClusterConfig withDiscountRate(double eta) {
        return new ClusterConfig(clusterId, registeredAt, capacity, tenants, eta, memory, par, measure, rootQuantumMs,
                quantumRefreshMs);
    }

    /** A copy with another root quantum. */
    public ClusterConfig withRootQuantum(long q0) {
        return new ClusterConfig(clusterId, registeredAt, capacity, tenants, discountRate, memory, par, measure, q0,
                quantumRefreshMs);
    }
}
