package io.fairledger.core.jobsim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fairledger.core.admission.BaselineFairShare;
import io.fairledger.core.admission.JobRequest;
import io.fairledger.core.admission.Justice;
import io.fairledger.core.admission.Oracle;
import io.fairledger.core.admission.ReactiveFairShare;

/** Hand-worked simulations of docs/domain.md section 11's execution model, tie rules and section 9's metrics. */
class JobSimulatorTest {

    private static final double EPS = 1e-9;

    private static JobRequest job(String id, double submit, int tasks, double deadline, double compTime) {
        return new JobRequest(id, Math.round(submit * 1000), tasks, Math.round(deadline * 1000), compTime, "t");
    }

    @Test
    void justiceRunWithADroppedJobAndSampledFairness() {
        // a: 10 CPUs from 0 s, 1000 CPU-s, finishes at 100 s (met). b arrives at 0 s, nothing free, its 10 s
        // deadline expires in the queue: dropped at 10 s after 10 s queued.
        List<JobRequest> jobs = List.of(job("a", 0, 10, 200, 1000), job("b", 0, 5, 10, 50));
        SimulationResult result = new JobSimulator().run(jobs, new Justice(10));
        assertThat(result.jobs()).containsExactly(new JobOutcome(jobs.get(0), Outcome.MET, 10, 0, 100_000, 0, 1000),
                new JobOutcome(jobs.get(1), Outcome.DROPPED, 0, -1, 10_000, 10_000, 0));
        Summary summary = result.summary();
        assertThat(summary.sdr()).isEqualTo(0.5);
        assertThat(summary.ptr()).isCloseTo(1000.0 / 1050, within(EPS));
        assertThat(summary.wtr()).isZero();
        // busy 1000 CPU-s over 10 CPUs x 100 s
        assertThat(summary.utilization()).isCloseTo(1.0, within(EPS));
        // samples at 0 s (F = 1 and 0: Jain 1/2) and 60 s (F = 1: Jain 1); equality 1 in both (one job per class)
        assertThat(summary.fairness()).isCloseTo(0.75, within(EPS));
        assertThat(summary.equality()).isCloseTo(1.0, within(EPS));
    }

    @Test
    void fairShareIsFluidAndCompletionBeatsExpiryAtTheSameInstant() {
        // both get 5 CPUs; b drains 100 CPU-s in 20 s, exactly at its deadline: met (completions first);
        // a has 400 CPU-s left, alone on 10 CPUs: 40 s more, done at 60 s
        List<JobRequest> jobs = List.of(job("a", 0, 10, 100, 500), job("b", 0, 10, 20, 100));
        for (var policy : List.of(new BaselineFairShare(10), new ReactiveFairShare(10))) {
            SimulationResult result = new JobSimulator().run(jobs, policy);
            assertThat(result.jobs()).extracting(JobOutcome::outcome).containsExactly(Outcome.MET, Outcome.MET);
            assertThat(result.jobs()).extracting(JobOutcome::finishMillis).containsExactly(60_000L, 20_000L);
        }
    }

    @Test
    void baselineLetsALateJobFinishWhileReactiveKillsIt() {
        List<JobRequest> jobs = List.of(job("a", 0, 10, 100, 500), job("b", 0, 10, 19, 100));
        SimulationResult baseline = new JobSimulator().run(jobs, new BaselineFairShare(10));
        assertThat(baseline.jobs().get(1).outcome()).isEqualTo(Outcome.MISSED);
        assertThat(baseline.summary().wtr()).isCloseTo(100.0 / 600, within(EPS));
        SimulationResult reactive = new JobSimulator().run(jobs, new ReactiveFairShare(10));
        // killed at 19 s after 19 s x 5 CPUs = 95 CPU-s; a then has 405 CPU-s left on 10 CPUs: 59.5 s
        JobOutcome killed = reactive.jobs().get(1);
        assertThat(killed.outcome()).isEqualTo(Outcome.KILLED);
        assertThat(killed.finishMillis()).isEqualTo(19_000);
        assertThat(killed.consumedCpuSeconds()).isCloseTo(95, within(1e-6));
        assertThat(reactive.jobs().get(0).finishMillis()).isEqualTo(59_500);
        assertThat(reactive.summary().wtr()).isCloseTo(95.0 / 600, within(1e-9));
    }

    @Test
    void oracleMeetsEveryDeadlineItAdmits() {
        List<JobRequest> jobs = List.of(job("a", 0, 8, 100, 250), job("b", 1, 8, 200, 400),
                job("c", 100, 8, 100, 1000));
        SimulationResult result = new JobSimulator().run(jobs, new Oracle(4));
        assertThat(result.jobs()).extracting(JobOutcome::outcome).containsExactly(Outcome.MET, Outcome.MET,
                Outcome.DROPPED);
        // b (1 s) waits for a, which holds 3 of 4 CPUs until 83.334 s; b then needs ceil(400 / 117.666) = 4
        assertThat(result.jobs().get(1).cpus()).isEqualTo(4);
    }

    @Test
    void rejectsDuplicateIds() {
        List<JobRequest> jobs = List.of(job("a", 0, 1, 10, 1), job("a", 1, 1, 10, 1));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new JobSimulator().run(jobs, new Justice(2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("duplicate job id a");
    }
}
