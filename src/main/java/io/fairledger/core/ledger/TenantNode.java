package io.fairledger.core.ledger;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;

/**
 * One node of the tenant tree inside a {@link ClusterLedger}: its configuration, the current rates derived from what
 * it holds, and its integrals. Holdings and pending demand are subtree totals (a node holds what its descendants
 * hold). Mutable, confined to its ledger.
 */
final class TenantNode {

    final int index;
    final TenantPath path;
    final TenantNode parent;
    final List<TenantNode> children = new ArrayList<>();
    final SiblingGroup childGroup;

    double weight;
    /** Configured discount rate, or NaN to inherit the cluster's ({@link ClusterLedger#reweighted} may change it). */
    double discountOverride;
    String pricePlan;

    /** Absolute share S: parent's share x weight / sum of sibling weights. */
    double share;
    double eta;

    final long[] held = new long[3];
    /** The node's own pending demand: the sum of {@link #pendingByApplication}. */
    final long[] ownPending = new long[3];
    /**
     * The latest non-zero pending demand each application reported for this node ({@code ""}: the tenant's own report);
     * an application reporting zero is removed, so this holds the applications with demand outstanding.
     */
    final Map<String, ResourceVector> pendingByApplication = new HashMap<>();
    final long[] pending = new long[3];
    int runningTasks;

    // current rates (shares of capacity), constant between this node's events
    double g;
    double countedRate;
    double d;
    double e;
    double b;
    double u;

    Accumulators acc;

    // time quantum top-up (scheduling only): sums over the subtree's young tasks, quantum ends relative to
    // registration so the products stay small
    int youngCount;
    double youngSize;
    double youngSizeTimesEnd;
    double quantumMs;
    /** Sum of the quanta of this node's applications and children, and how many there are. */
    double quantumSum;
    int quantumMembers;
    boolean quantumDirty;
    java.util.Map<String, AdaptiveQuantum.App> lastApps;

    TenantNode(int index, TenantPath path, TenantNode parent, double weight, double discountOverride,
            String pricePlan, long start) {
        this.index = index;
        this.path = path;
        this.parent = parent;
        this.weight = weight;
        this.discountOverride = discountOverride;
        this.pricePlan = pricePlan;
        this.childGroup = new SiblingGroup(start);
        this.acc = new Accumulators(start);
    }

    boolean active() {
        return runningTasks > 0 || pending[0] > 0 || pending[1] > 0 || pending[2] > 0;
    }

    /**
     * Time-quantum top-up at {@code t} (docs/domain.md section 6): sum over young tasks of (Q - elapsed) x size; the
     * ledger has expired the tasks whose quantum ended by {@code t}.
     */
    double quantumTopUp(long tSinceRegistration) {
        if (youngCount == 0) {
            return 0;
        }
        return Math.max(0, youngSizeTimesEnd - tSinceRegistration * youngSize);
    }

    void addYoung(double size, long endSinceRegistration) {
        youngCount++;
        youngSize += size;
        youngSizeTimesEnd += size * endSinceRegistration;
    }

    void removeYoung(double size, long endSinceRegistration) {
        if (--youngCount == 0) {
            youngSize = 0;
            youngSizeTimesEnd = 0;
        } else {
            youngSize -= size;
            youngSizeTimesEnd -= size * endSinceRegistration;
        }
    }
}
