package io.fairledger.core.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

import io.fairledger.core.admission.Decision.Admit;
import io.fairledger.core.admission.Decision.Drop;
import io.fairledger.core.admission.Decision.Kill;
import io.fairledger.core.admission.Decision.Queue;

/** Hand-worked Justice traces (docs/domain.md section 9); every expected number is derived in the comments. */
class JusticeTraceTest {

    private static final double EPS = 1e-9;

    private static long s(double seconds) {
        return Math.round(seconds * 1000);
    }

    private static JobRequest job(String id, double submit, int tasks, double deadline, double compTime) {
        return new JobRequest(id, s(submit), tasks, s(deadline), compTime, "t");
    }

    @Test
    void bootstrapGivesMaxCpusOrWhatIsFreeThenLearnsAndBecomesAggressive() {
        Justice justice = new Justice(10);
        // bootstrap: reqCpus = maxCPUs = 10
        assertThat(justice.submitAndDecide(job("j1", 0, 10, 100, 500))).containsExactly(new Admit("j1", 10));
        // nothing free: queued
        assertThat(justice.submitAndDecide(job("j2", 1, 5, 100, 100))).containsExactly(new Queue("j2"));
        // j1 finishes at 50 s (500 / 10): TRACK_JOB rate 500/100/10 = 0.5, Last 1.0, error -0.5; one completion
        justice.complete(new JobCompletion("j1", s(50), 500));
        assertThat(justice.allocationFraction()).isEqualTo(1.0);
        assertThat(justice.decide(s(50))).containsExactly(new Admit("j2", 5));
        // j2 finishes at 70 s: rate 100/100/5 = 0.2, Min 0.2, Max 0.5, Last 1.0 (met), error -0.8, mean -0.65
        // fraction (1.0 + Min 0.2) / 2 - 0.65 = -0.05, validated up to MinCPUFrac 0.2
        justice.complete(new JobCompletion("j2", s(70), 100));
        assertThat(justice.allocationFraction()).isCloseTo(0.2, within(EPS));
        // queued 0 s: reqCpus = ceil(0.2 * 10) = 2 of the 10 the job could use
        assertThat(justice.submitAndDecide(job("j3", 70, 10, 100, 150))).containsExactly(new Admit("j3", 2));
        assertThat(justice.freeCpus()).isEqualTo(8);
    }

    @Test
    void bootstrapJobThatDoesNotFitGetsWhatIsFree() {
        Justice justice = new Justice(10);
        assertThat(justice.submitAndDecide(job("a", 0, 8, 100, 80))).containsExactly(new Admit("a", 8));
        assertThat(justice.submitAndDecide(job("b", 1, 5, 100, 50))).containsExactly(new Admit("b", 2));
        assertThat(justice.submitAndDecide(job("c", 2, 3, 100, 30))).containsExactly(new Queue("c"));
    }

    /**
     * Shared history with exponential smoothing alpha 0.9: j1 (rate 0.5, error -0.5), j2 (rate 0.2, error -0.8),
     * smoothed error -0.77; then j3 gets 2 CPUs (fraction 0.2) and either meets or misses.
     */
    private static Justice historyThenJ3(double j3CompTime, double j3Finish) {
        Justice justice = new Justice(10, JusticeConfig.defaults().withSmoothing(new ErrorSmoothing.Exponential(0.9)));
        justice.submitAndDecide(job("j1", 0, 10, 100, 500));
        justice.complete(new JobCompletion("j1", s(50), 500));
        justice.decide(s(50));
        justice.submitAndDecide(job("j2", 60, 10, 100, 200));
        justice.complete(new JobCompletion("j2", s(80), 200));
        justice.decide(s(80));
        // fraction (1.0 + 0.2) / 2 - 0.77 < Min: 0.2, so j3 gets ceil(0.2 * 10) = 2
        assertThat(justice.submitAndDecide(job("j3", 100, 10, 100, j3CompTime))).containsExactly(new Admit("j3", 2));
        justice.complete(new JobCompletion("j3", s(j3Finish), j3CompTime));
        return justice;
    }

    @Test
    void consecutiveSuccessesConvergeToMinCpuFrac() {
        // j3 needs 150 CPU-s: 75 s on 2 CPUs, met at 175 s; rate 0.15 (new Min), Last 0.2, error -0.05
        // smoothed 0.9 * -0.05 + 0.1 * -0.77 = -0.122; (0.2 + Min 0.15) / 2 - 0.122 = 0.053, validated to 0.15
        Justice justice = historyThenJ3(150, 175);
        assertThat(justice.allocationFraction()).isCloseTo(0.15, within(EPS));
        assertThat(justice.submitAndDecide(job("j4", 200, 10, 100, 100))).containsExactly(new Admit("j4", 2));
    }

    @Test
    void aMissMakesItConservative() {
        // j3 needs 400 CPU-s: 200 s on 2 CPUs, finishes at 300 s > 200 s, missed; rate 0.4, Last 0.2, error 0.2
        // smoothed 0.9 * 0.2 + 0.1 * -0.77 = 0.103; (0.2 + Max 0.5) / 2 + 0.103 = 0.453 -> ceil(4.53) = 5 CPUs
        Justice justice = historyThenJ3(400, 300);
        assertThat(justice.allocationFraction()).isCloseTo(0.453, within(EPS));
        assertThat(justice.submitAndDecide(job("j4", 300, 10, 100, 100))).containsExactly(new Admit("j4", 5));
    }

    /**
     * Capacity 10, bootstrap of one completion. j0 (6 tasks) holds 6 CPUs until 10000 s; j1 (4 tasks, 200 CPU-s, 100
     * s deadline) finishes at 50 s: rate 2 / 4 = 0.5 = Min = Max, Last 1.0, error -0.5, fraction (1.0 + 0.5) / 2 - 0.5
     * = 0.25, validated up to 0.5. At 50 s four CPUs are free.
     */
    private static Justice clusterWithFourFree() {
        Justice justice = new Justice(10, JusticeConfig.defaults().withBootstrapCompletions(1));
        justice.submit(job("j0", 0, 6, 20000, 60000));
        justice.submit(job("j1", 0, 4, 100, 200));
        assertThat(justice.decide(0)).containsExactly(new Admit("j0", 6), new Admit("j1", 4));
        justice.submit(job("a", 10, 10, 10000, 1000));
        justice.submit(job("b", 10, 2, 100, 40000));
        assertThat(justice.decide(s(10))).containsExactly(new Queue("a"), new Queue("b"));
        justice.complete(new JobCompletion("j1", s(50), 200));
        assertThat(justice.allocationFraction()).isCloseTo(0.5, within(EPS));
        return justice;
    }

    @Test
    void aJobThatDoesNotFitIsSkippedAndASmallerOneBehindItIsAdmitted() {
        Justice justice = clusterWithFourFree();
        // a: TTD 9960 s, reqCpus ceil(0.5 * 10000 / 9960 * 10) = 6, priority 6 / 9960 = 0.0006 (first)
        // b: TTD 60 s, reqCpus ceil(0.5 * 100 / 60 * 2) = 2, priority 2 / 60 = 0.033 (second)
        JobRequest a = job("a", 10, 10, 10000, 1000);
        assertThat(justice.requiredCpus(a, s(50))).isEqualTo(6);
        assertThat(justice.decide(s(50))).containsExactly(new Admit("b", 2));
        assertThat(justice.queuedJobs()).isEqualTo(1);
    }

    @Test
    void queueTimeScalesTheRequestUntilTheJobIsInfeasibleAndDropped() {
        Justice justice = clusterWithFourFree();
        justice.decide(s(50));
        JobRequest a = job("a", 10, 10, 10000, 1000);
        // reqCpus = ceil(0.5 * deadline / (deadline - queued) * 10)
        assertThat(justice.requiredCpus(a, s(2010))).isEqualTo(7); // 0.5 * 10000 / 8000 * 10 = 6.25
        assertThat(justice.requiredCpus(a, s(5010))).isEqualTo(10); // TTD 5000 s: exactly 10.0
        assertThat(justice.decide(s(5010))).isEmpty();
        // one millisecond later 10.000002 -> 11 CPUs > min(tasks, capacity) = 10: infeasible
        assertThat(justice.decide(s(5010) + 1)).containsExactly(
                new Drop("a", "infeasible: needs 11 CPUs to meet its deadline, at most 10 usable"));
        assertThat(justice.queuedJobs()).isZero();
    }

    @Test
    void aQueuedJobWhoseDeadlinePassesIsDropped() {
        Justice justice = new Justice(2);
        justice.submitAndDecide(job("big", 0, 2, 1000, 2000));
        assertThat(justice.submitAndDecide(job("late", 1, 1, 10, 1))).containsExactly(new Queue("late"));
        assertThat(justice.decide(s(10))).isEmpty();
        assertThat(justice.decide(s(11)))
                .containsExactly(new Drop("late", "deadline passed while queued"));
    }

    @Test
    void onlyJobsAboveTheKillThresholdAreKilledPastTheirDeadline() {
        Justice justice = new Justice(10, JusticeConfig.defaults().withKillAboveTasks(5));
        justice.submit(job("big", 0, 6, 10, 120));
        justice.submit(job("small", 0, 4, 10, 80));
        // priority reqCpus / TTD: small 4 / 10 s before big 6 / 10 s
        assertThat(justice.decide(0)).containsExactly(new Admit("small", 4), new Admit("big", 6));
        assertThat(justice.decide(s(9.999))).isEmpty();
        assertThat(justice.decide(s(10))).containsExactly(
                new Kill("big", "running past its deadline with 6 tasks, above the kill threshold of 5"));
        assertThat(justice.freeCpus()).isEqualTo(6);
        // the small late job finishes (missed) and feeds the statistics; the kill fed none
        justice.complete(new JobCompletion("small", s(20), 80));
        assertThat(justice.allocationFraction()).isEqualTo(1.0);
    }

    @Test
    void withoutAThresholdNobodyIsKilled() {
        Justice justice = new Justice(10);
        justice.submitAndDecide(job("big", 0, 6, 10, 120));
        assertThat(justice.decide(s(10))).isEmpty();
        assertThat(justice.decide(s(15))).isEmpty();
    }
}
