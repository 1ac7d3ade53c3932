package io.fairledger.core.ledger;

import io.fairledger.core.model.ResourceVector;

/**
 * The integrals of the nodes of a {@link ClusterLedger} (LTRF eqs. 3, 9 and 10): between two events a node's rates are
 * constant, so each integral grows by a product (usage, counted usage, entitlement, demand, borrowing, exact resource
 * totals), the lending terms by the node's rate times the growth of its sibling group's global accumulators, and the
 * memory integrals as its {@link MemoryIntegration} says. Lazy: a node is advanced when it is touched or read. O(1)
 * per advance.
 */
final class NodeIntegrals {

    private final MemoryIntegration memory;
    private final long registeredAt;

    NodeIntegrals(MemoryIntegration memory, long registeredAt) {
        this.memory = memory;
        this.registeredAt = registeredAt;
    }

    MemoryIntegration memory() {
        return memory;
    }

    /** Advances {@code n}'s own integrals to {@code t}, its sibling group's lending integrals first. */
    void advance(TenantNode n, long t) {
        double kLend = 0;
        double kBorrow = 0;
        if (n.parent != null) {
            SiblingGroup g = n.parent.childGroup;
            g.advance(t);
            kLend = g.kLend;
            kBorrow = g.kBorrow;
        }
        integrate(n, n.acc, t, kLend, kBorrow);
    }

    /** Advances {@code acc} of {@code n} to {@code t}: the node's rates have been constant since {@code acc.last}. */
    void integrate(TenantNode n, Accumulators acc, long t, double kLend, double kBorrow) {
        long dt = t - acc.last;
        if (dt <= 0) {
            return;
        }
        acc.actual += n.g * dt;
        acc.counted += n.countedRate * dt;
        acc.entitled += n.e * dt;
        acc.demand += n.d * dt;
        acc.borrowedRaw += n.b * dt;
        double uncounted = uncountedFraction(n.g, n.countedRate);
        for (int r = 0; r < ResourceVector.TYPES; r++) {
            if (n.held[r] != 0) {
                acc.resourceMs[r].addProduct(n.held[r], dt);
                if (uncounted > 0) {
                    acc.uncountedResourceMs[r] += n.held[r] * uncounted * dt;
                }
            }
        }
        if (n.parent != null) {
            acc.lent += n.u * (kLend - acc.kLendSeen);
            acc.borrowedFromSiblings += n.b * (kBorrow - acc.kBorrowSeen);
            acc.kLendSeen = kLend;
            acc.kBorrowSeen = kBorrow;
        }
        memory.advance(n, acc, t, dt);
        acc.last = t;
    }

    /**
     * The fraction of what a node holds that does not count at an instant: {@code 1 - g'/g} (0 when {@code g = 0}),
     * where {@code g' = min(g, S) + eta max(g - S, 0)} (LTRF eq. 7). A USAGE charge prices each resource held times
     * {@code g'/g} at each instant (docs/accounting.md, "USAGE"), so borrowed resources are cheaper by eta exactly while
     * they are borrowed: the charged units x ms are {@code resourceMs - integral of held x (1 - g'/g) dt}. Kept as the
     * uncounted part so that a tenant that never borrows (or eta = 1) is charged from the exact integer integral.
     */
    static double uncountedFraction(double g, double counted) {
        return g > Accuracy.EPSILON && counted < g ? 1 - counted / g : 0;
    }

    /** The account of {@code n} at {@code at}, integrated on a copy: the node itself is not advanced. */
    TenantAccount account(TenantNode n, long at) {
        AccountTable.Rows rows = new AccountTable.Rows(1);
        addRow(n, at, new Accumulators(at), rows);
        return rows.table().get(0);
    }

    /**
     * Adds the account of {@code n} at {@code at} to {@code rows}, integrated in {@code scratch}, whose values it
     * overwrites: one scratch serves the accounts of every node (the row keeps none of it).
     */
    void addRow(TenantNode n, long at, Accumulators scratch, AccountTable.Rows rows) {
        Accumulators a = n.acc.copyInto(scratch);
        double kLend = 0;
        double kBorrow = 0;
        if (n.parent != null) {
            kLend = n.parent.childGroup.kLendAt(at);
            kBorrow = n.parent.childGroup.kBorrowAt(at);
        }
        integrate(n, a, at, kLend, kBorrow);
        rows.add(n, a, n.quantumTopUp(at - registeredAt));
    }
}
