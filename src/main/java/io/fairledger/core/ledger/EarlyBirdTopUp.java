package io.fairledger.core.ledger;

import io.fairledger.core.model.ParPolicy;

/**
 * The early-bird privilege (LTRF eqs. 10 and 16, Tang et al., 2014; docs/domain.md section 5): a node that becomes
 * active for the first time in its memory period (the round under ROUNDS, since registration otherwise) gets a top-up
 * {@code phi} of its memory counted usage, taken from its siblings that arrived strictly earlier and are still active,
 * per the cluster's {@link ParPolicy}: the largest of their {@code memCounted + phi} (MAX, the paper's rule), the
 * smallest (MIN) or none (ZERO); with no such sibling it gets 0. A node active when a round starts arrived at the
 * round start (eq. 14; {@link MemoryIntegration.Rounds} marks it).
 *
 * <p>
 * Invariant: a node gets its top-up once per memory period, at its first arrival; the root never gets one. Cost:
 * O(siblings) for the arriving node, each sibling advanced to the arrival instant first.
 */
final class EarlyBirdTopUp {

    private final NodeIntegrals integrals;
    private final ParPolicy par;

    EarlyBirdTopUp(NodeIntegrals integrals, ParPolicy par) {
        this.integrals = integrals;
        this.par = par;
    }

    /** Marks {@code n}, becoming active at {@code t}, arrived, with its top-up, unless it arrived before. */
    void arrive(TenantNode n, long t) {
        if (n.acc.arrived || n.parent == null) {
            return;
        }
        n.acc.arrived = true;
        n.acc.arrivalAt = t;
        double phi = 0;
        boolean anyEarlier = false;
        for (TenantNode k : n.parent.children) {
            if (k == n) {
                continue;
            }
            integrals.advance(k, t);
            if (k.acc.arrived && k.active() && k.acc.arrivalAt < t) {
                double f = k.acc.memCounted + k.acc.phi;
                phi = switch (par) {
                    case MAX -> anyEarlier ? Math.max(phi, f) : f;
                    case MIN -> anyEarlier ? Math.min(phi, f) : f;
                    case ZERO -> 0;
                };
                anyEarlier = true;
            }
        }
        n.acc.phi = phi;
    }
}
