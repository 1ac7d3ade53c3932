package io.fairledger.core.grant;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** What every {@link GrantPolicy} promises: within demand, within what is available, work-conserving. */
abstract class GrantPolicyContract {

    /** A one-resource round, as in LTRF's Table 1. */
    static GrantRequest singleResource(double capacity, double interval, List<Claimant> claimants) {
        return new GrantRequest(new double[]{capacity}, new double[]{capacity}, interval, claimants);
    }

    private static final double TOLERANCE = 1e-6;

    abstract GrantPolicy policy();

    static GrantRequest randomRequest(Random rnd, int types) {
        int n = 1 + rnd.nextInt(12);
        double[] cap = new double[types];
        for (int r = 0; r < types; r++) {
            cap[r] = 10 + rnd.nextInt(1000);
        }
        List<Claimant> cs = new ArrayList<>();
        double weightSum = 0;
        double[] weights = new double[n];
        for (int i = 0; i < n; i++) {
            weights[i] = rnd.nextInt(5) == 0 ? 0 : 0.5 + rnd.nextInt(4);
            weightSum += weights[i];
        }
        for (int i = 0; i < n; i++) {
            double[] d = new double[types];
            for (int r = 0; r < types; r++) {
                d[r] = rnd.nextInt(3) == 0 ? 0 : rnd.nextDouble() * cap[r] * 0.8;
            }
            double share = weightSum > 0 ? weights[i] / weightSum : 0;
            double eta = new double[]{0, 0.5, 1}[rnd.nextInt(3)];
            cs.add(new Claimant("t" + i, weights[i], share, d, rnd.nextInt(3) == 0 ? 0 : rnd.nextDouble() * 50, eta));
        }
        return new GrantRequest(cap, cap, rnd.nextInt(4) == 0 ? 0 : 1 + rnd.nextInt(20), cs);
    }

    @Test
    void grantsStayWithinDemandAndCapacityAndLeaveNothingWanted() {
        Random rnd = new Random(20261122);
        for (int round = 0; round < 2000; round++) {
            int types = 1 + rnd.nextInt(3);
            GrantRequest req = randomRequest(rnd, types);
            Grants grants = policy().grant(req);
            double[] used = new double[types];
            boolean[] unmet = new boolean[req.claimants().size()];
            for (int i = 0; i < req.claimants().size(); i++) {
                double[] a = grants.grants().get(i).allocation();
                double[] d = req.claimants().get(i).demand();
                for (int r = 0; r < types; r++) {
                    assertThat(a[r]).as("allocation within demand").isBetween(-TOLERANCE, d[r] + TOLERANCE);
                    used[r] += a[r];
                    if (a[r] < d[r] - TOLERANCE) {
                        unmet[i] = true;
                    }
                }
            }
            for (int r = 0; r < types; r++) {
                assertThat(used[r]).as("within capacity").isLessThanOrEqualTo(req.available()[r] + TOLERANCE);
            }
            for (int i = 0; i < unmet.length; i++) {
                if (unmet[i]) {
                    double[] d = req.claimants().get(i).demand();
                    boolean saturated = false;
                    for (int r = 0; r < types; r++) {
                        if (d[r] > 0 && used[r] >= req.available()[r] - 1e-4) {
                            saturated = true;
                        }
                    }
                    assertThat(saturated).as("work-conserving: unmet claimant %s in round %d", i, round).isTrue();
                }
            }
            assertThat(grants.order()).hasSize(req.claimants().size());
        }
    }

    @Test
    void everybodyServedWhenDemandFits() {
        var req = singleResource(100, 10,
                List.of(new Claimant("a", 1, 0.5, new double[]{30}, 500, 1),
                        new Claimant("b", 1, 0.5, new double[]{60}, 0, 1)));
        var g = policy().grant(req).byId();
        assertThat(g.get("a").allocation()[0]).isEqualTo(30);
        assertThat(g.get("b").allocation()[0]).isEqualTo(60);
    }
}
