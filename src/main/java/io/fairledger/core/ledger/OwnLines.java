package io.fairledger.core.ledger;

import java.util.Collection;

import io.fairledger.core.model.TenantPath;

/**
 * Own lines (docs/domain.md section 2, "Own lines"): the tasks and demand of a tenant that has children (or of the
 * root) are held by a leaf of their own below it, {@link TenantPath#ownLine}, so that every resource-second held is on
 * a leaf's line and billed. When a leaf that has held anything gains its first child, what it held as a leaf, its
 * running tasks, pending demand and the open period's integrals, is handed to its new own line at that instant, so the
 * usage before the change stays billed. O(running tasks) for that hand-over, once per tenant; O(1) otherwise.
 */
final class OwnLines {

    private OwnLines() {
    }

    /** Whether the tasks and demand named for {@code n} are held by its own line: it has children, or is the root. */
    static boolean routed(TenantNode n) {
        return n.parent == null || !n.children.isEmpty();
    }

    /** The path of the node holding the tasks and demand named for {@code path} in {@code tree}. */
    static TenantPath holderPath(TenantTree tree, TenantPath path) {
        TenantNode n = tree.get(path);
        return n != null && routed(n) ? path.ownLine() : path;
    }

    /**
     * Whether {@code parent}, about to gain the child {@code child}, is a leaf (not the root) that holds or has held
     * something its own line must take over: running tasks, pending demand, usage or demand in the open period, or
     * remembered usage.
     */
    static boolean handsOver(TenantNode parent, TenantPath child) {
        if (parent.parent == null || !parent.children.isEmpty() || child.isOwnLine()) {
            return false;
        }
        Accumulators a = parent.acc;
        boolean periodUse = a.demand != 0 || a.actual != 0 || a.memActual != 0 || a.memEntitled != 0;
        for (Int128 r : a.resourceMs) {
            periodUse |= r.hi != 0 || r.lo != 0;
        }
        return parent.active() || periodUse;
    }

    /**
     * Moves what the leaf {@code former} holds into {@code own}, its own line created at the instant both are advanced
     * to: holdings, pending demand per application, young tasks' quantum sums, the running tasks themselves, and every
     * integral but lending, which {@code own} does among its new siblings from now on (so each sibling group's balances
     * still sum to zero). {@code former}'s values, now its subtree's, do not change.
     */
    static void handOver(TenantNode former, TenantNode own, Collection<RunningTask> tasks) {
        Accumulators a = former.acc.copy();
        a.lent = 0;
        a.borrowedFromSiblings = 0;
        a.kLendSeen = own.acc.kLendSeen;
        a.kBorrowSeen = own.acc.kBorrowSeen;
        own.acc = a;
        System.arraycopy(former.held, 0, own.held, 0, former.held.length);
        System.arraycopy(former.ownPending, 0, own.ownPending, 0, former.ownPending.length);
        System.arraycopy(former.pending, 0, own.pending, 0, former.pending.length);
        java.util.Arrays.fill(former.ownPending, 0);
        own.pendingByApplication.putAll(former.pendingByApplication);
        former.pendingByApplication.clear();
        own.runningTasks = former.runningTasks;
        own.youngCount = former.youngCount;
        own.youngSize = former.youngSize;
        own.youngSizeTimesEnd = former.youngSizeTimesEnd;
        for (RunningTask t : tasks) {
            if (t.tenant == former) {
                t.tenant = own;
            }
        }
    }
}
