package io.fairledger.core.ledger;

import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.UsageMeasure;

/**
 * The rates of a node of a {@link ClusterLedger}, derived from what its subtree holds and asks (shares of capacity,
 * constant between two of its events), and the sums {@code B, U} of borrowed and unused share its sibling group keeps
 * incrementally for the lending terms ({@link SiblingGroup}). An update is O(1), plus O(siblings) once every
 * {@code siblings} updates, when the sums are recomputed from scratch.
 */
final class NodeRates {

    private NodeRates() {
    }

    /** Recomputes n's rates from its holdings and moves its sibling group's sums by the difference. */
    static void update(TenantNode n, UsageMeasure measure, ResourceVector capacity) {
        double oldB = n.b;
        double oldU = n.u;
        compute(n, measure, capacity);
        if (n.parent != null) {
            SiblingGroup g = n.parent.childGroup;
            g.borrowedSum += n.b - oldB;
            g.unusedSum += n.u - oldU;
            if (++g.updatesSinceRecompute >= n.parent.children.size()) {
                resum(n.parent);
            }
        }
    }

    /**
     * n's rates from its holdings, share and discount rate: used {@code g}, demanded {@code d}, counted
     * {@code min(g, S) + eta max(g - S, 0)} (LTRF eq. 7), entitled {@code min(d, S)}, borrowed {@code max(g - S, 0)}
     * and unused {@code max(S - g, 0)}.
     */
    static void compute(TenantNode n, UsageMeasure measure, ResourceVector capacity) {
        double s = n.share;
        n.g = measure.share(n.held[0], n.held[1], n.held[2], capacity);
        n.d = measure.share(n.held[0] + n.pending[0], n.held[1] + n.pending[1], n.held[2] + n.pending[2],
                capacity);
        n.countedRate = Math.min(n.g, s) + n.eta * Math.max(n.g - s, 0);
        n.e = Math.min(n.d, s);
        n.b = Math.max(n.g - s, 0);
        n.u = Math.max(s - n.g, 0);
    }

    /** Recomputes the sibling sums of {@code parent}'s children from scratch, shedding rounding drift. */
    static void resum(TenantNode parent) {
        double b = 0;
        double u = 0;
        for (TenantNode c : parent.children) {
            b += c.b;
            u += c.u;
        }
        parent.childGroup.borrowedSum = b;
        parent.childGroup.unusedSum = u;
        parent.childGroup.updatesSinceRecompute = 0;
    }
}
