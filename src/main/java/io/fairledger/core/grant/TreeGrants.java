package io.fairledger.core.grant;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

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
        return request(ledger, child -> ledger.account(child, at), parent, intervalMs, available);
    }

    /** {@link #request} with each child's account from {@code accounts}. */
    private static GrantRequest request(ClusterLedger ledger, Function<TenantPath, TenantAccount> accounts,
            TenantPath parent, long intervalMs, double[] available) {
        List<TenantPath> children = ledger.children(parent);
        List<Claimant> claimants = new ArrayList<>(children.size());
        for (TenantPath child : children) {
            TenantAccount acc = accounts.apply(child);
            double[] demand = new double[ResourceVector.TYPES];
            for (int r = 0; r < ResourceVector.TYPES; r++) {
                demand[r] = acc.now().held().get(r) + acc.now().pending().get(r);
            }
            claimants.add(new Claimant(child.toString(), acc.weight(), acc.share(), demand,
                    acc.memory().schedulingValue(), acc.discountRate()));
        }
        double[] cap = capacity(ledger);
        return new GrantRequest(cap, available == null ? cap : available, intervalMs, claimants);
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
        return levels(ledger, ledger.accounts(at), at, intervalMs, policy);
    }

    /**
     * {@link #levels} from {@code accounts}, every node's account at {@code at} as {@link ClusterLedger#accounts} gave
     * them: a caller that has them (a live view) does not have every account computed again.
     */
    public static List<GrantLevel> levels(ClusterLedger ledger, List<TenantAccount> accounts, long at, long intervalMs,
            GrantPolicy policy) {
        if (at < ledger.clock()) {
            throw new IllegalArgumentException("instant " + at + " is before the ledger clock " + ledger.clock());
        }
        Map<TenantPath, TenantAccount> byPath = new HashMap<>();
        for (TenantAccount a : accounts) {
            byPath.put(a.path(), a);
        }
        List<GrantLevel> out = new ArrayList<>();
        level(ledger, byPath::get, TenantPath.ROOT, capacity(ledger), intervalMs, policy, out);
        return out;
    }

    private static void level(ClusterLedger ledger, Function<TenantPath, TenantAccount> accounts, TenantPath parent,
            double[] available, long intervalMs, GrantPolicy policy, List<GrantLevel> out) {
        List<TenantPath> children = ledger.children(parent);
        if (children.isEmpty()) {
            return;
        }
        GrantRequest request = request(ledger, accounts, parent, intervalMs, available);
        Grants grants = policy.grant(request);
        out.add(new GrantLevel(parent, request, grants));
        for (int i = 0; i < children.size(); i++) {
            level(ledger, accounts, children.get(i), grants.grants().get(i).allocation(), intervalMs, policy, out);
        }
    }

    private static double[] capacity(ClusterLedger ledger) {
        double[] cap = new double[ResourceVector.TYPES];
        for (int r = 0; r < ResourceVector.TYPES; r++) {
            cap[r] = ledger.capacity().get(r);
        }
        return cap;
    }
}
