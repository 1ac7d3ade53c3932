package io.fairledger.core.fairness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.fairledger.core.stats.JainIndex;

/**
 * Fairness of a set of tenants over an accounting window (docs/domain.md sections 3 and 9; LTRF eqs. 3-5,
 * Tang et al., 2014).
 *
 * <ul>
 * <li>{@code rho_i = A_i / E_i} per tenant ({@link FairnessDegree});</li>
 * <li>sharing benefit {@code Psi = sum max(rho_i - 1, 0)} and sharing loss {@code Omega = sum min(rho_i - 1, 0)} (eqs.
 * 4, 5); decision: tenants with no entitlement are left out of both (their rho is not a number);</li>
 * <li>Jain's fairness over the demand fraction {@code min(A_i / D_i, 1)} ({@code D_i} the accumulated demand), over
 * tenants with demand;</li>
 * <li>equality: Jain's index over actual usage within each class of equal accumulated demand, averaged weighted by
 * class size; classes are demands equal after rounding to {@link #DEMAND_CLASS_RESOLUTION}.</li>
 * </ul>
 *
 * @param degrees
 *            tenant id to rho
 * @param sharingBenefit
 *            Psi
 * @param sharingLoss
 *            Omega (<= 0)
 * @param jainFairness
 *            Jain's index over demand fractions
 * @param equality
 *            class-size-weighted Jain's index within demand classes
 */
public record FairnessReport(Map<String, FairnessDegree> degrees, double sharingBenefit, double sharingLoss,
        double jainFairness, double equality) {

    /** Demand integrals (capacity-ms) equal to this resolution form one class. */
    public static final double DEMAND_CLASS_RESOLUTION = 1e-6;

    public FairnessReport {
        degrees = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(degrees));
    }

    /**
     * One tenant's accumulated values over the window.
     *
     * @param id
     *            the tenant
     * @param actual
     *            A
     * @param entitled
     *            E
     * @param demand
     *            accumulated demand D
     */
    public record Usage(String id, double actual, double entitled, double demand) {
    }

    /**
     * The report over the open period of the given accounts (for example the leaves, or the children of one node, from
     * {@link io.fairledger.core.ledger.ClusterLedger#accounts(long)}); tenants are named by their path.
     */
    public static FairnessReport ofPeriod(List<io.fairledger.core.ledger.TenantAccount> accounts) {
        List<Usage> usages = new ArrayList<>(accounts.size());
        for (var a : accounts) {
            usages.add(new Usage(a.path().toString(), Math.max(0, a.period().actual()),
                    Math.max(0, a.period().entitled()), Math.max(0, a.period().demand())));
        }
        return of(usages);
    }

    /** The report over {@code usages}; O(n log n). */
    public static FairnessReport of(List<Usage> usages) {
        Map<String, FairnessDegree> degrees = new LinkedHashMap<>();
        double psi = 0;
        double omega = 0;
        List<Double> fractions = new ArrayList<>();
        Map<Long, List<Double>> classes = new TreeMap<>();
        for (Usage u : usages) {
            FairnessDegree rho = FairnessDegree.of(u.actual(), u.entitled());
            degrees.put(u.id(), rho);
            if (!rho.noEntitlement()) {
                psi += Math.max(rho.value() - 1, 0);
                omega += Math.min(rho.value() - 1, 0);
            }
            if (u.demand() > FairnessDegree.EPSILON) {
                fractions.add(Math.min(u.actual() / u.demand(), 1.0));
                long key = Math.round(u.demand() / DEMAND_CLASS_RESOLUTION);
                classes.computeIfAbsent(key, k -> new ArrayList<>()).add(u.actual());
            }
        }
        double jain = JainIndex.of(fractions.stream().mapToDouble(Double::doubleValue).toArray());
        double weighted = 0;
        int members = 0;
        for (List<Double> c : classes.values()) {
            weighted += c.size() * JainIndex.of(c.stream().mapToDouble(Double::doubleValue).toArray());
            members += c.size();
        }
        double equality = members == 0 ? 1.0 : weighted / members;
        return new FairnessReport(degrees, psi, omega, jain, equality);
    }
}
