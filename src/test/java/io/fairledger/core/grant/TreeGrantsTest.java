package io.fairledger.core.grant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fairledger.core.ledger.ClusterLedger;
import io.fairledger.core.ledger.LedgerEvent.DemandChanged;
import io.fairledger.core.model.ClusterConfig;
import io.fairledger.core.model.MemoryMode;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantConfig;
import io.fairledger.core.model.TenantPath;

class TreeGrantsTest {

    private static ClusterLedger ledger() {
        var config = ClusterConfig.defaults("c", 0, ResourceVector.of(10, 10240, 0),
                List.of(TenantConfig.of("root.x", 1), TenantConfig.of("root.w", 1), TenantConfig.of("root.x.y", 3),
                        TenantConfig.of("root.x.v", 1)))
                .withMemory(new MemoryMode.Full());
        var ledger = new ClusterLedger(config);
        for (String tenant : List.of("x/y", "x/v", "w")) {
            ledger.apply(new DemandChanged("c", TenantPath.parse(tenant), ResourceVector.of(10, 0, 0), 0));
        }
        return ledger;
    }

    @Test
    void grantTreeSplitsLevelByLevel() {
        var grants = TreeGrants.tree(ledger(), 0, 10_000, new LongTermMaxMin());
        // x and w split 10 vcores 5/5; inside x, y and v split x's 5 by 3:1
        assertThat(grants.get(TenantPath.parse("root.w"))[0]).isCloseTo(5000, within(1e-6));
        assertThat(grants.get(TenantPath.parse("root.x"))[0]).isCloseTo(5000, within(1e-6));
        assertThat(grants.get(TenantPath.parse("root.x.y"))[0]).isCloseTo(3750, within(1e-6));
        assertThat(grants.get(TenantPath.parse("root.x.v"))[0]).isCloseTo(1250, within(1e-6));
    }

    @Test
    void levelsComeParentsFirstWithTheLedgersNumbers() {
        var levels = TreeGrants.levels(ledger(), 0, 10_000, new LongTermMaxMin());
        assertThat(levels).extracting(GrantLevel::parent).containsExactly(TenantPath.ROOT,
                TenantPath.parse("root.x"));
        GrantRequest inner = levels.get(1).request();
        assertThat(inner.claimants()).extracting(Claimant::id).containsExactly("root.x.y", "root.x.v");
        assertThat(inner.claimants().get(0).weight()).isEqualTo(3);
        assertThat(inner.claimants().get(0).demandAt(0)).isEqualTo(10_000);
        assertThat(inner.available()[0]).isCloseTo(5000, within(1e-6));
    }

    @Test
    void theLevelsFromTheAccountsOfAViewAreTheLevelsReadFromTheLedger() {
        var ledger = ledger();
        ledger.apply(new DemandChanged("c", TenantPath.parse("x/y"), ResourceVector.of(2, 512, 0), 3_000));
        // tenants added later, below parents created earlier: siblings stay in their creation order
        ledger.reconfigure(3_500, ClusterConfig.defaults("c", 0, ResourceVector.of(10, 10240, 0),
                List.of(TenantConfig.of("root.x", 1), TenantConfig.of("root.w", 1), TenantConfig.of("root.x.y", 3),
                        TenantConfig.of("root.x.v", 1), TenantConfig.of("root.w.z", 2), TenantConfig.of("root.a", 1),
                        TenantConfig.of("root.x.b", 1)))
                .withMemory(new MemoryMode.Full()));
        ledger.apply(new DemandChanged("c", TenantPath.parse("x/b"), ResourceVector.of(3, 0, 0), 3_600));
        var levels = TreeGrants.levels(ledger.capacity(), ledger.accounts(4_000), 10_000, new LongTermMaxMin());
        for (GrantLevel level : levels) {
            assertThat(level.request()).usingRecursiveComparison().isEqualTo(TreeGrants.request(ledger, level.parent(),
                    4_000, 10_000, level.request().available()));
        }
        assertThat(levels).extracting(GrantLevel::parent).containsExactly(TenantPath.ROOT,
                TenantPath.parse("root.x"), TenantPath.parse("root.w"));
        assertThat(levels.get(1).request().claimants()).extracting(Claimant::id).containsExactly("root.x.y",
                "root.x.v", "root.x.b");
    }

    @Test
    void unknownParentsAndEarlyInstantsAreRefused() {
        var ledger = ledger();
        assertThatThrownBy(() -> TreeGrants.request(ledger, TenantPath.parse("root.nope"), 0, 10_000, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown tenant");
        ledger.apply(new DemandChanged("c", TenantPath.parse("w"), ResourceVector.of(1, 0, 0), 5_000));
        assertThatThrownBy(() -> TreeGrants.levels(ledger, 1_000, 10_000, new LongTermMaxMin()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("before the ledger clock");
    }
}
