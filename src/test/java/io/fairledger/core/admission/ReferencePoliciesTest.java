package io.fairledger.core.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

import io.fairledger.core.admission.Decision.Admit;
import io.fairledger.core.admission.Decision.Drop;
import io.fairledger.core.admission.Decision.Kill;
import io.fairledger.core.admission.Decision.Queue;

/** Hand-worked traces for PYTHIA, the Oracle and the fair-share reference allocators. */
class ReferencePoliciesTest {

    private static JobRequest job(String id, long submitSeconds, int tasks, long deadlineSeconds, double compTime) {
        return new JobRequest(id, submitSeconds * 1000, tasks, deadlineSeconds * 1000, compTime, "t");
    }

    @Test
    void pythiaKeepsTheLargestRateSeenAndScalesByQueueTime() {
        Pythia pythia = new Pythia(10);
        assertThat(pythia.cpuFraction()).isEqualTo(-1);
        pythia.submitAndDecide(job("a", 0, 10, 100, 300));
        pythia.complete(new JobCompletion("a", 30_000, 300)); // rate 300 / 100 / 10 = 0.3
        pythia.decide(30_000);
        pythia.submitAndDecide(job("b", 30, 10, 100, 100));
        pythia.complete(new JobCompletion("b", 40_000, 100)); // rate 0.1: CPUFrac stays 0.3
        assertThat(pythia.cpuFraction()).isCloseTo(0.3, within(1e-12));
        // after bootstrap: ceil(0.3 * 10) = 3 CPUs
        assertThat(pythia.submitAndDecide(job("c", 40, 10, 100, 100))).containsExactly(new Admit("c", 3));
    }

    @Test
    void oracleGivesTheFewestCpusThatMeetTheDeadlineAndQueuesOrDrops() {
        Oracle oracle = new Oracle(4);
        // 250 CPU-s in 100 s: ceil(2.5) = 3 CPUs
        assertThat(oracle.submitAndDecide(job("a", 0, 8, 100, 250))).containsExactly(new Admit("a", 3));
        // needs ceil(400 / 200) = 2 > 1 free: queued
        assertThat(oracle.submitAndDecide(job("b", 0, 8, 200, 400))).containsExactly(new Queue("b"));
        // at 100 s b needs ceil(400 / 100) = 4 = its usable maximum, a finished: admitted with 4
        oracle.complete(new JobCompletion("a", 84_000, 250));
        assertThat(oracle.decide(100_000)).containsExactly(new Admit("b", 4));
        // c cannot finish even on the whole cluster: 1000 CPU-s in 100 s needs 10 > 4
        assertThat(oracle.submitAndDecide(job("c", 100, 8, 100, 1000)))
                .containsExactly(new Drop("c", "infeasible: needs 10 CPUs to meet its deadline, at most 4 usable"));
    }

    @Test
    void baselineFairShareAdmitsEverythingAndSharesMaxMin() {
        BaselineFairShare fs = new BaselineFairShare(10);
        fs.submit(job("a", 0, 2, 10, 100));
        fs.submit(job("b", 0, 8, 10, 100));
        fs.submit(job("c", 0, 20, 10, 100));
        assertThat(fs.decide(0)).containsExactly(new Admit("a", 2), new Admit("b", 8), new Admit("c", 10));
        // water-filling: a capped at 2, b and c split the remaining 8
        assertThat(fs.shares()).containsEntry("a", 2.0).containsEntry("b", 4.0).containsEntry("c", 4.0);
        assertThat(fs.decide(10_000)).isEmpty();
    }

    @Test
    void reactiveFairShareKillsAtTheDeadline() {
        ReactiveFairShare fs = new ReactiveFairShare(10);
        fs.submitAndDecide(job("a", 0, 4, 10, 100));
        fs.submitAndDecide(job("b", 5, 4, 100, 100));
        assertThat(fs.decide(9_999)).isEmpty();
        assertThat(fs.decide(10_000)).containsExactly(new Kill("a", "running at its deadline"));
        assertThat(fs.shares()).containsOnlyKeys("b");
    }

    @Test
    void maxMinSharesFillWaterLevels() {
        assertThat(MaxMinShares.of(new int[]{1, 5, 5}, 7)).containsExactly(1.0, 3.0, 3.0);
        assertThat(MaxMinShares.of(new int[]{1, 2}, 7)).containsExactly(1.0, 2.0);
        assertThat(MaxMinShares.of(new int[]{}, 7)).isEmpty();
    }

    @Test
    void errorSmoothingAveragesAsDocumented() {
        ErrorSmoothing.Average equal = new ErrorSmoothing.EqualWeights().newAverage();
        ErrorSmoothing.Average exponential = new ErrorSmoothing.Exponential(0.5).newAverage();
        for (double e : new double[]{1, 0, 0}) {
            equal.add(e);
            exponential.add(e);
        }
        assertThat(equal.value()).isCloseTo(1.0 / 3, within(1e-12));
        assertThat(exponential.value()).isCloseTo(0.25, within(1e-12));
    }

    @Test
    void shortestTtdPolicyOrdersByDeadlineFirst() {
        Justice justice = new Justice(2, JusticeConfig.defaults().withPriority(PriorityPolicy.SHORTEST_TTD));
        justice.submitAndDecide(job("hold", 0, 2, 1000, 20));
        justice.submit(job("far", 1, 1, 500, 1));
        justice.submit(job("near", 1, 1, 50, 1));
        justice.decide(1000);
        justice.complete(new JobCompletion("hold", 10_000, 20));
        assertThat(justice.decide(10_000)).containsExactly(new Admit("near", 1), new Admit("far", 1));
    }
}
