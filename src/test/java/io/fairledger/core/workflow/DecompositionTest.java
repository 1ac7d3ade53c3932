package io.fairledger.core.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class DecompositionTest {

    private static WorkflowJob job(String id, String... deps) {
        return new WorkflowJob(id, 1, 1.0, 1, List.of(deps));
    }

    /** Fig. 3 of FlowTime (Hu et al., 2018): job 1, then jobs 2..n in parallel, then job n+1; identical jobs. */
    private static Workflow figure3(int n, double deadline) {
        List<WorkflowJob> jobs = new ArrayList<>();
        jobs.add(job("1"));
        List<String> middle = new ArrayList<>();
        for (int i = 2; i <= n; i++) {
            jobs.add(job(String.valueOf(i), "1"));
            middle.add(String.valueOf(i));
        }
        jobs.add(job(String.valueOf(n + 1), middle.toArray(String[]::new)));
        return new Workflow("fig3", jobs, 0, deadline);
    }

    @Test
    void kahnGroupsIndependentJobsIntoWaves() {
        WorkflowDag dag = new WorkflowDag(figure3(5, 100));
        assertThat(dag.waves()).extracting(w -> w.stream().map(WorkflowJob::id).toList())
                .containsExactly(List.of("1"), List.of("2", "3", "4", "5"), List.of("6"));
        WorkflowDag diamond = new WorkflowDag(new Workflow("d",
                List.of(job("a"), job("b", "a"), job("c", "a"), job("d", "b", "c"), job("e", "b")), 0, 10));
        assertThat(diamond.waves()).extracting(w -> w.stream().map(WorkflowJob::id).toList())
                .containsExactly(List.of("a"), List.of("b", "c"), List.of("d", "e"));
    }

    @Test
    void theParallelMiddleWaveGetsItsDemandShareOfTheDeadline() {
        int n = 10;
        double deadline = 1100;
        List<JobWindow> windows = new WaveDemandDecomposer().decompose(new WorkflowDag(figure3(n, deadline)));
        JobWindow middle = windows.get(1);
        // each wave first gets its 1 s minimum; the 1097 s left are split 1 : n-1 : 1 by demand
        double distributable = deadline - 3;
        assertThat((middle.deadlineSeconds() - middle.releaseSeconds()) - 1)
                .isCloseTo(distributable * (n - 1) / (n + 1), within(1e-9));
        assertThat((middle.deadlineSeconds() - middle.releaseSeconds()) / deadline)
                .isCloseTo((double) (n - 1) / (n + 1), within(0.002));
        assertThat(windows.subList(1, n)).allSatisfy(w -> assertThat(w).isEqualTo(
                new JobWindow("fig3", w.jobId(), middle.releaseSeconds(), middle.deadlineSeconds())));
        assertThat(windows.get(n).deadlineSeconds()).isEqualTo(deadline);
        // with n = 2 the runtime terms cancel: exactly (n-1)/(n+1) = 1/3 of the deadline
        JobWindow two = new WaveDemandDecomposer().decompose(new WorkflowDag(figure3(2, 90))).get(1);
        assertThat((two.deadlineSeconds() - two.releaseSeconds())).isCloseTo(30, within(1e-9));
    }

    @Test
    void theCriticalPathGivesTheMiddleJobsOneThird() {
        List<JobWindow> windows = new CriticalPathDecomposer().decompose(new WorkflowDag(figure3(10, 900)));
        assertThat(windows.get(1).releaseSeconds()).isCloseTo(300, within(1e-9));
        assertThat(windows.get(1).deadlineSeconds()).isCloseTo(600, within(1e-9));
        assertThat(windows.get(10).deadlineSeconds()).isCloseTo(900, within(1e-9));
    }

    @Test
    void aDeadlineShorterThanTheMinimumsFallsBackToTheCriticalPath() {
        Workflow tight = figure3(4, 2.4);
        assertThat(new WaveDemandDecomposer().decompose(new WorkflowDag(tight)))
                .isEqualTo(new CriticalPathDecomposer().decompose(new WorkflowDag(tight)));
    }

    @Test
    void aCycleIsRejectedNamingItsJobs() {
        Workflow cyclic = new Workflow("w", List.of(job("start"), job("a", "start", "c"), job("b", "a"),
                job("c", "b"), job("after", "c")), 0, 10);
        assertThatThrownBy(() -> new WorkflowDag(cyclic)).isInstanceOfSatisfying(CyclicWorkflowException.class,
                e -> assertThat(e.cycle()).containsExactlyInAnyOrder("a", "b", "c"))
                .hasMessageContaining("workflow w has a dependency cycle").hasMessageContaining("a -> b -> c -> a");
        Workflow selfLoop = new Workflow("s", List.of(job("x", "x")), 0, 10);
        assertThatThrownBy(() -> new WorkflowDag(selfLoop)).hasMessageContaining("x -> x");
    }

    @Test
    void unknownDependenciesAndDuplicateIdsAreRejected() {
        assertThatThrownBy(() -> new WorkflowDag(new Workflow("w", List.of(job("a", "ghost")), 0, 10)))
                .hasMessageContaining("job a depends on unknown job ghost");
        assertThatThrownBy(() -> new WorkflowDag(new Workflow("w", List.of(job("a"), job("a")), 0, 10)))
                .hasMessageContaining("duplicate job id a");
        assertThatThrownBy(() -> new WorkflowJob("a", 0, 1, 1, List.of())).hasMessageContaining("tasks");
    }
}
