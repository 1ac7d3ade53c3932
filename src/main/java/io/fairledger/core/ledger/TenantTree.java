package io.fairledger.core.ledger;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.fairledger.core.model.TenantPath;

/**
 * The tenant tree of a {@link ClusterLedger}: its nodes by path and in creation order (parents before children, root
 * first), and the absolute shares derived from the weights: {@code S_i} is {@code w_i / sum of all configured siblings'
 * weights} times the parent's share (resource as you pay). O(1) per lookup or new node, O(tenants) to recompute the
 * shares. Mutable, confined to its ledger.
 */
final class TenantTree {

    private final Map<TenantPath, TenantNode> nodes = new HashMap<>();
    private final List<TenantNode> ordered = new ArrayList<>();

    /** The node of {@code path}, or null. */
    TenantNode get(TenantPath path) {
        return nodes.get(path);
    }

    /** Every node, root first, parents before children. */
    List<TenantNode> ordered() {
        return ordered;
    }

    int size() {
        return ordered.size();
    }

    /**
     * A new node at {@code t} below {@code parent} (null for the root); its lending and borrowing integrals start from
     * its sibling group's current values.
     */
    TenantNode add(TenantPath path, TenantNode parent, double weight, double discount, String plan, long t) {
        TenantNode n = new TenantNode(ordered.size(), path, parent, weight, discount, plan, t);
        if (parent != null) {
            parent.childGroup.advance(t);
            n.acc.kLendSeen = parent.childGroup.kLend;
            n.acc.kBorrowSeen = parent.childGroup.kBorrow;
            parent.children.add(n);
        }
        nodes.put(path, n);
        ordered.add(n);
        return n;
    }

    /** Puts back a node restored from a checkpoint, after its parent: unlike {@link #add}, nothing else moves. */
    void restore(TenantNode n) {
        if (n.parent != null) {
            n.parent.children.add(n);
        }
        nodes.put(n.path, n);
        ordered.add(n);
    }

    /** Every node's path, root first, parents before children. */
    List<TenantPath> paths() {
        List<TenantPath> out = new ArrayList<>(ordered.size());
        for (TenantNode n : ordered) {
            out.add(n.path);
        }
        return out;
    }

    /** The children of {@code parent}, in creation order; empty for a leaf or an unknown node. */
    List<TenantPath> children(TenantPath parent) {
        TenantNode p = nodes.get(parent);
        List<TenantPath> out = new ArrayList<>();
        if (p != null) {
            for (TenantNode c : p.children) {
                out.add(c.path);
            }
        }
        return out;
    }

    /** Absolute shares top-down and each node's discount rate ({@code discountRate} unless overridden). */
    void recomputeShares(TenantNode root, double discountRate) {
        root.share = 1.0;
        root.eta = discountRate;
        for (TenantNode n : ordered) {
            double sum = 0;
            for (TenantNode c : n.children) {
                sum += c.weight;
            }
            for (TenantNode c : n.children) {
                c.share = sum > 0 ? n.share * c.weight / sum : 0;
                c.eta = Double.isNaN(c.discountOverride) ? discountRate : c.discountOverride;
            }
        }
    }
}
