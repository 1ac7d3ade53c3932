package io.fairledger.core.grant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.Test;

class LongTermMaxMinTest extends GrantPolicyContract {

    @Override
    GrantPolicy policy() {
        return new LongTermMaxMin();
    }

    @Test
    void lessServedTenantCatchesUp() {
        // capacity 100 (share units), D = 1: A at 60, B at 140 -> level 160: A 80 (capped), B 20 (LTRF Table 1, t3)
        var req = new GrantRequest(new double[]{1}, new double[]{100}, 1,
                List.of(new Claimant("A", 1, 50, new double[]{80}, 60, 1),
                        new Claimant("B", 1, 50, new double[]{70}, 140, 1)));
        var g = new LongTermMaxMin().grant(req);
        assertThat(g.byId().get("A").allocation()[0]).isEqualTo(80);
        assertThat(g.byId().get("B").allocation()[0]).isEqualTo(20);
        assertThat(g.order()).containsExactly("A", "B");
    }

    @Test
    void weightsScaleTheLevel() {
        // equal histories, weights 3:1 -> 75/25 of 100
        var req = new GrantRequest(new double[]{1}, new double[]{100}, 1,
                List.of(new Claimant("a", 3, 75, new double[]{100}, 0, 1),
                        new Claimant("b", 1, 25, new double[]{100}, 0, 1)));
        var g = new LongTermMaxMin().grant(req).byId();
        assertThat(g.get("a").allocation()[0]).isCloseTo(75, within(1e-9));
        assertThat(g.get("b").allocation()[0]).isCloseTo(25, within(1e-9));
    }

    @Test
    void weightZeroGetsOnlyTheLeftovers() {
        var req = new GrantRequest(new double[]{1}, new double[]{100}, 1,
                List.of(new Claimant("a", 1, 100, new double[]{70}, 1000, 1),
                        new Claimant("z", 0, 0, new double[]{100}, 0, 1)));
        var g = new LongTermMaxMin().grant(req);
        assertThat(g.byId().get("a").allocation()[0]).isEqualTo(70);
        assertThat(g.byId().get("z").allocation()[0]).isCloseTo(30, within(1e-9));
        assertThat(g.order()).containsExactly("a", "z");
    }

    @Test
    void zeroDiscountJumpIsSharedByWeight() {
        // eta = 0: borrowing is free, so both jump to their demand at the same level; 40 left above the shares
        var req = new GrantRequest(new double[]{1}, new double[]{100}, 1,
                List.of(new Claimant("a", 1, 30, new double[]{100}, 0, 0),
                        new Claimant("b", 1, 30, new double[]{100}, 0, 0)));
        var g = new LongTermMaxMin().grant(req).byId();
        assertThat(g.get("a").allocation()[0]).isCloseTo(50, within(1e-9));
        assertThat(g.get("b").allocation()[0]).isCloseTo(50, within(1e-9));
    }

    @Test
    void dominantShareAcrossTwoResources() {
        // DRF example: 9 cpus, 18 GB; a wants <1 cpu, 4 GB> per unit, b <3 cpu, 1 GB>; demands large
        // equal weights, no history: dominant shares equalise at 2/3: a gets 3 cpu 12 GB, b 6 cpu 2 GB
        double[] cap = {9, 18};
        var req = new GrantRequest(cap, cap, 1,
                List.of(new Claimant("a", 1, 0.5, new double[]{4.5, 18}, 0, 1),
                        new Claimant("b", 1, 0.5, new double[]{9, 3}, 0, 1)));
        var g = new LongTermMaxMin().grant(req).byId();
        assertThat(g.get("a").allocation()[0]).isCloseTo(3, within(1e-9));
        assertThat(g.get("a").allocation()[1]).isCloseTo(12, within(1e-9));
        assertThat(g.get("b").allocation()[0]).isCloseTo(6, within(1e-9));
        assertThat(g.get("b").allocation()[1]).isCloseTo(2, within(1e-9));
    }
}
