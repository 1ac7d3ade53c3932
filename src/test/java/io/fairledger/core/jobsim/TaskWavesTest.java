package io.fairledger.core.jobsim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.fairledger.core.admission.JobRequest;
import io.fairledger.core.admission.Oracle;

class TaskWavesTest {

    @Test
    void equalTasksRunInWaves() {
        // 5 tasks of 10 s on 2 slots: 3 waves
        assertThat(TaskWaves.makespanSeconds(new double[]{10, 10, 10, 10, 10}, 2)).isEqualTo(30);
        // enough slots: the longest task
        assertThat(TaskWaves.makespanSeconds(new double[]{4, 9, 1}, 8)).isEqualTo(9);
    }

    @Test
    void tasksGoToTheFirstFreeSlotInTraceOrder() {
        // slots: [8, 2] -> 3rd (5) on slot 2 ends at 7 -> 4th (4) on slot 7 ends at 11
        assertThat(TaskWaves.makespanSeconds(new double[]{8, 2, 5, 4}, 2)).isEqualTo(11);
    }

    @Test
    void rejectsBadInput() {
        assertThatThrownBy(() -> TaskWaves.makespanSeconds(new double[]{1}, 0))
                .hasMessageContaining("cpus must be at least 1");
        assertThatThrownBy(() -> TaskWaves.makespanSeconds(new double[]{-1, 2}, 1))
                .hasMessageContaining("task duration must be finite and >= 0");
    }

    @Test
    void theSimulatorUsesWavesWhenDurationsAreKnown() {
        // Oracle gives 3 CPUs to meet 14 s; 4 tasks of 10 s on 3 CPUs: perfect parallelism 13.334 s, waves 20 s
        JobRequest job = new JobRequest("a", 0, 4, 14_000, 40, "t");
        var waves = new JobSimulator(JobSimulator.ExecutionModel.TASK_WAVES,
                Map.of("a", new double[]{10, 10, 10, 10})::get, done -> {
                });
        assertThat(waves.run(List.of(job), new Oracle(3)).jobs().get(0).finishMillis()).isEqualTo(20_000);
        assertThat(new JobSimulator().run(List.of(job), new Oracle(3)).jobs().get(0).finishMillis())
                .isEqualTo(13_334);
    }
}
