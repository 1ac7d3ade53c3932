package io.fairledger.core.ledger;

import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.UsageMeasure;

/**
 * What a task or demand event changes along the path from a leaf to the root (docs/domain.md section 3): holdings and
 * pending demand are subtree totals, so every node of the path takes the difference, recomputes its rates
 * ({@link NodeRates}, LTRF eq. 7, Tang et al., 2014) and, when it becomes active, arrives ({@link EarlyBirdTopUp}). A
 * tenant's own pending demand is the sum over its applications, each report replacing that application's. The caller
 * has advanced the path's integrals to the event's instant. O(depth), plus O(siblings) per arrival.
 */
final class PathHoldings {

    private final UsageMeasure measure;
    private final EarlyBirdTopUp earlyBird;

    PathHoldings(UsageMeasure measure, EarlyBirdTopUp earlyBird) {
        this.measure = measure;
        this.earlyBird = earlyBird;
    }

    /** A task of {@code leaf} holding {@code v} started at {@code t}. */
    void taskStarted(TenantNode leaf, ResourceVector v, ResourceVector capacity, long t) {
        for (TenantNode n = leaf; n != null; n = n.parent) {
            boolean wasActive = n.active();
            for (int r = 0; r < ResourceVector.TYPES; r++) {
                n.held[r] += v.get(r);
            }
            n.runningTasks++;
            NodeRates.update(n, measure, capacity);
            if (!wasActive) {
                earlyBird.arrive(n, t);
            }
        }
    }

    /** A task of {@code leaf} holding {@code v} finished. */
    void taskFinished(TenantNode leaf, ResourceVector v, ResourceVector capacity) {
        for (TenantNode n = leaf; n != null; n = n.parent) {
            for (int r = 0; r < ResourceVector.TYPES; r++) {
                n.held[r] -= v.get(r);
            }
            n.runningTasks--;
            NodeRates.update(n, measure, capacity);
        }
    }

    /** Application {@code applicationId} of {@code leaf} reported {@code pending} at {@code t} (zero: none). */
    void demandChanged(TenantNode leaf, String applicationId, ResourceVector pending, ResourceVector capacity,
            long t) {
        ResourceVector before = pending.isZero()
                ? leaf.pendingByApplication.remove(applicationId)
                : leaf.pendingByApplication.put(applicationId, pending);
        long[] delta = new long[ResourceVector.TYPES];
        for (int r = 0; r < ResourceVector.TYPES; r++) {
            delta[r] = pending.get(r) - (before == null ? 0 : before.get(r));
            leaf.ownPending[r] += delta[r];
        }
        for (TenantNode n = leaf; n != null; n = n.parent) {
            boolean wasActive = n.active();
            for (int r = 0; r < ResourceVector.TYPES; r++) {
                n.pending[r] += delta[r];
            }
            NodeRates.update(n, measure, capacity);
            if (!wasActive && n.active()) {
                earlyBird.arrive(n, t);
            }
        }
    }
}
