package io.fairledger.core.ledger;

import java.math.BigInteger;
import java.util.List;

import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;

/**
 * One tree node's account at an instant: its configuration, current rates, the open period's integrals and its
 * long-term memory. Shares are fractions of cluster capacity; integrals of shares are in capacity-milliseconds.
 *
 * @param path
 *            the node ({@link TenantPath#ROOT} for the whole cluster)
 * @param weight
 *            configured weight
 * @param share
 *            absolute share {@code S} (docs/domain.md section 2)
 * @param discountRate
 *            eta in effect
 * @param pricePlan
 *            the configured price plan's name; empty for the cluster default
 * @param now
 *            current rates
 * @param period
 *            integrals since the open period started (what the bill uses)
 * @param memory
 *            long-term values per the memory mode (what grants use)
 */
public record TenantAccount(TenantPath path, double weight, double share, double discountRate, String pricePlan,
        Rates now,
        PeriodTotals period, Memory memory) {

    /**
     * Current instantaneous quantities (docs/domain.md section 2).
     *
     * @param held
     *            resources held by running tasks of the subtree
     * @param pending
     *            pending demand of the subtree
     * @param g
     *            held share
     * @param counted
     *            counted share g' (LTRF eq. 7)
     * @param demand
     *            demand share d (held + pending)
     * @param entitled
     *            {@code min(d, S)}
     * @param borrowed
     *            {@code max(g - S, 0)}
     * @param unused
     *            {@code max(S - g, 0)}
     * @param runningTasks
     *            tasks of the subtree running now
     */
    public record Rates(ResourceVector held, ResourceVector pending, double g, double counted, double demand,
            double entitled, double borrowed, double unused, int runningTasks) {
    }

    /**
     * Integrals over the open period (docs/domain.md section 3), never decayed.
     *
     * @param resourceMs
     *            exact units x milliseconds per resource type: millicore-ms, MB-ms, GPU-ms
     * @param uncountedResourceMs
     *            the part of {@code resourceMs} held while not counted: integral of {@code held_r x (1 - g'/g) dt}
     *            (0 for a tenant that never borrowed, or with eta = 1)
     * @param actual
     *            A, integral of g
     * @param counted
     *            F, integral of g'
     * @param entitled
     *            E, integral of e
     * @param demand
     *            integral of d
     * @param borrowed
     *            integral of b
     * @param lent
     *            integral of {@code lent = u M / U}: what this node lent its siblings, matched ({@link SiblingGroup})
     * @param borrowedFromSiblings
     *            integral of {@code owed = b M / B}: the part of b its siblings matched, what it owes (equal to
     *            {@code borrowed} when its group lends at least what it borrows; see {@link SiblingGroup})
     */
    public record PeriodTotals(List<BigInteger> resourceMs, List<Double> uncountedResourceMs, double actual,
            double counted, double entitled,
            double demand, double borrowed, double lent, double borrowedFromSiblings) {

        public PeriodTotals {
            resourceMs = List.copyOf(resourceMs);
            uncountedResourceMs = List.copyOf(uncountedResourceMs);
        }

        /** Lending balance {@code L = lent - borrowed from siblings}; positive for a net lender. */
        public double balance() {
            return lent - borrowedFromSiblings;
        }

        /** Resource-seconds of type {@code r} (exact, as a decimal string's worth of BigInteger ms / 1000). */
        public java.math.BigDecimal resourceSeconds(int r) {
            return new java.math.BigDecimal(resourceMs.get(r)).movePointLeft(3);
        }
    }

    /**
     * Long-term values per the cluster's memory mode (docs/domain.md sections 4-6).
     *
     * @param actual
     *            remembered integral of g
     * @param counted
     *            remembered integral of g' (F of the scheduling value)
     * @param entitled
     *            remembered integral of e
     * @param par
     *            early-bird top-up phi (LTRF eq. 10/16)
     * @param quantumTopUp
     *            time-quantum top-up of the young running tasks (LTRF 5.1.1)
     */
    public record Memory(double actual, double counted, double entitled, double par, double quantumTopUp) {

        /** The scheduling value {@code F + phi + top-up} that grants order by (before dividing by the weight). */
        public double schedulingValue() {
            return counted + par + quantumTopUp;
        }
    }
}
