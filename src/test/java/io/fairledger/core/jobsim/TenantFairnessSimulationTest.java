package io.fairledger.core.jobsim;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.fairledger.core.jobsim.TenantFairnessSimulation.Policy;
import io.fairledger.core.jobsim.TenantFairnessSimulation.Series;
import io.fairledger.core.model.MemoryMode;

/**
 * LTRF (Tang et al., 2014) Fig. 5's claim on a steady and a bursty tenant without preemption: under MLRF the bursty
 * tenant's sharing loss (it reaches its share only as the steady tenant's tasks end) recurs with every burst and
 * persists; under LTRF it gets the slots back afterwards and Omega returns to 0.
 */
class TenantFairnessSimulationTest {

    private final TenantFairnessSimulation sim = new TenantFairnessSimulation(2, 100, 7200, 36, 1800, 1.0,
            0.4, new MemoryMode.Full(), 600);

    @Test
    void sharingLossVanishesUnderLtrfAndPersistsUnderMlrf() {
        Series ltrf = sim.run(Policy.LTRF, 1);
        Series mlrf = sim.run(Policy.MLRF, 1);
        int last = ltrf.seconds().length - 1;
        int half = last / 2;
        // over the second half: under MLRF Omega never comes back (every burst adds loss), under LTRF it returns to
        // 0 after each burst is paid back, and is smaller on average
        double mlrfMax = java.util.Arrays.stream(mlrf.omega(), half, last + 1).max().orElseThrow();
        double ltrfMax = java.util.Arrays.stream(ltrf.omega(), half, last + 1).max().orElseThrow();
        assertThat(mlrfMax).isLessThan(-0.02);
        assertThat(ltrfMax).isGreaterThan(-1e-9);
        assertThat(java.util.Arrays.stream(ltrf.omega(), half, last + 1).average().orElseThrow())
                .isGreaterThan(java.util.Arrays.stream(mlrf.omega(), half, last + 1).average().orElseThrow() / 2);
        // the bursty tenant under MLRF stays below its entitlement
        assertThat(mlrf.rho().get("t1")[last]).isLessThan(1.0);
        // Omega is never positive, Psi never negative
        for (Series s : new Series[]{ltrf, mlrf}) {
            for (int i = 0; i <= last; i++) {
                assertThat(s.omega()[i]).isLessThanOrEqualTo(0);
                assertThat(s.psi()[i]).isGreaterThanOrEqualTo(0);
            }
        }
    }

    @Test
    void sameSeedSameSeries() {
        assertThat(sim.run(Policy.LTRF, 3).omega()).containsExactly(sim.run(Policy.LTRF, 3).omega());
    }
}
