package io.fairledger.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class PathOrderTest {

    /** A tree as a ledger lists it: root first, each node after its parent, siblings in creation order. */
    private static final List<TenantPath> TREE = List.of(TenantPath.ROOT, TenantPath.parse("root.b"),
            TenantPath.parse("root.a"), TenantPath.parse("root.a.y"), TenantPath.parse("root.a.x"),
            TenantPath.parse("root.c"));

    @Test
    void theLeavesAreTheNodesNoneIsTheParentOfInPathOrder() {
        assertThat(PathOrder.leaves(TREE)).containsExactly(4, 3, 1, 5);
        assertThat(PathOrder.leaves(List.of(TenantPath.ROOT))).isEmpty();
        assertThat(PathOrder.parents(TREE)).containsExactlyInAnyOrder(TenantPath.ROOT, TenantPath.parse("root.a"));
    }

    @Test
    void everyNodeButTheRootInPathOrder() {
        assertThat(PathOrder.nonRoot(TREE)).containsExactly(2, 4, 3, 1, 5);
        assertThat(PathOrder.nonRoot(List.of())).isEmpty();
    }
}
