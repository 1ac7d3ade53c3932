package io.fairledger.core.model;

import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.IntStream;

/**
 * Which nodes of a tree a statement and a fairness report take, and in which order, from the nodes' paths alone: the
 * positions in {@code paths} of the leaves, or of every node but the root, in path order.
 */
public final class PathOrder {

    private PathOrder() {
    }

    /** The positions of the billed tenants among {@code paths}: the leaves (no path's parent; never the root). */
    public static int[] leaves(List<TenantPath> paths) {
        Set<TenantPath> parents = parents(paths);
        return inPathOrder(paths, p -> !p.isRoot() && !parents.contains(p));
    }

    /** The nodes among {@code paths} that have children: the parents of every path but the root. */
    public static Set<TenantPath> parents(List<TenantPath> paths) {
        Set<TenantPath> parents = new HashSet<>();
        for (TenantPath p : paths) {
            if (!p.isRoot()) {
                parents.add(p.parent());
            }
        }
        return parents;
    }

    /** The positions of every path among {@code paths} but the root's. */
    public static int[] nonRoot(List<TenantPath> paths) {
        return inPathOrder(paths, p -> !p.isRoot());
    }

    private static int[] inPathOrder(List<TenantPath> paths, Predicate<TenantPath> keep) {
        return IntStream.range(0, paths.size()).filter(i -> keep.test(paths.get(i))).boxed()
                .sorted(Comparator.comparing(paths::get)).mapToInt(Integer::intValue).toArray();
    }
}
