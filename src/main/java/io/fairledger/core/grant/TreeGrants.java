package io.fairledger.core.grant;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.fairledger.core.ledger.ClusterLedger;
import io.fairledger.core.ledger.TenantAccount;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;

/**
 * Grants for a whole tenant tree from a {@link ClusterLedger} (docs/domain.md sections 1 and 7): siblings compete for
 * their parent's grant, level by level; the root's children share the capacity, then each node's children share what
 * the node was granted. Each level's claimants come from the ledger's accounts at the grant instant: weight, absolute
 * share, demand (held + pending), scheduling value {@code F + phi + quantum top-up} and discount rate; grants use
 * dominant shares. O(tenants log tenants) with {@link LongTermMaxMin}. Reads the ledger only (apart from ending the
 * time quanta that ended by the instant, as every read does).
 */
public final class TreeGrants {

    private TreeGrants() {
    }

    /**
     * What the grant engine needs to split {@code available} (null: the capacity) among the children of
     * {@code parent} at {@code at} over an interval of {@code intervalMs}.
     *
     * @throws IllegalArgumentException
     *             for an unknown tenant or an instant before the ledger's clock
     */
    public static GrantRequest request(ClusterLedger ledger, TenantPath parent, long at, long intervalMs,
            double[] available) {
        ledger.account(parent, at); // the same checks as every read: known tenant, not before the clock
        List<TenantAccount> children = new ArrayList<>();
        for (TenantPath child : ledger.children(parent)) {
            children.add(ledger.account(child, at));
        }
        double[] cap = capacity(ledger.capacity());
        return request(children, cap, available == null ? cap : available, intervalMs);
    }

    /** The request of the children whose accounts are {@code children}, in their creation order. */
    private static GrantRequest request(List<TenantAccount> children, double[] capacity, double[] available,
            long intervalMs) {
        List<Claimant> claimants = new ArrayList<>(children.size());
        for (TenantAccount acc : children) {
            double[] demand = new double[ResourceVector.TYPES];
            for (int r = 0; r < ResourceVector.TYPES; r++) {
                demand[r] = acc.now().held().get(r) + acc.now().pending().get(r);
            }
            claimants.add(new Claimant(acc.path().toString(), acc.weight(), acc.share(), demand,
                    acc.memory().schedulingValue(), acc.discountRate()));
        }
        return new GrantRequest(capacity, available, intervalMs, claimants);
    }

    /** Every node's allocation per resource type (millicores, MB, GPUs) at {@code at}, root excluded. */
    public static Map<TenantPath, double[]> tree(ClusterLedger ledger, long at, long intervalMs, GrantPolicy policy) {
        Map<TenantPath, double[]> out = new LinkedHashMap<>();
        for (GrantLevel level : levels(ledger, at, intervalMs, policy)) {
            for (var g : level.grants().grants()) {
                out.put(TenantPath.parse(g.id()), g.allocation());
            }
        }
        return out;
    }

    /** The levels of {@link #tree}, parents before their children, each with its inputs and its order. */
    public static List<GrantLevel> levels(ClusterLedger ledger, long at, long intervalMs, GrantPolicy policy) {
        if (at < ledger.clock()) {
            throw new IllegalArgumentException("instant " + at + " is before the ledger clock " + ledger.clock());
        }
        return levels(ledger.capacity(), ledger.accounts(at), intervalMs, policy);
    }

    /**
     * {@link #levels} from {@code accounts}, every node's account at one instant as {@link ClusterLedger#accounts} gave
     * them (root first, each node after its parent and after its elder siblings), and the cluster's {@code capacity}:
     * reads no ledger, so a live view computes its grants from what it holds when they are first read.
     */
    public static List<GrantLevel> levels(ResourceVector capacity, List<TenantAccount> accounts, long intervalMs,
            GrantPolicy policy) {
        Map<TenantPath, List<TenantAccount>> children = new HashMap<>();
        for (TenantAccount a : accounts) {
            if (!a.path().isRoot()) {
                children.computeIfAbsent(a.path().parent(), p -> new ArrayList<>()).add(a);
            }
        }
        List<GrantLevel> out = new ArrayList<>();
        double[] cap = capacity(capacity);
        level(children, TenantPath.ROOT, cap, cap, intervalMs, policy, out);
        return out;
    }

    private static void level(Map<TenantPath, List<TenantAccount>> tree, TenantPath parent, double[] capacity,
            double[] available, long intervalMs, GrantPolicy policy, List<GrantLevel> out) {
        List<TenantAccount> children = tree.getOrDefault(parent, List.of());
        if (children.isEmpty()) {
            return;
        }
        GrantRequest request = request(children, capacity, available, intervalMs);
        Grants grants = policy.grant(request);
        out.add(new GrantLevel(parent, request, grants));
        for (int i = 0; i < children.size(); i++) {
            level(tree, children.get(i).path(), capacity, grants.grants().get(i).allocation(), intervalMs, policy,
                    out);
        }
    }

    private static double[] capacity(ResourceVector capacity) {
        double[] cap = new double[ResourceVector.TYPES];
        for (int r = 0; r < ResourceVector.TYPES; r++) {
            cap[r] = capacity.get(r);
        }
        return cap;
    }
}
