package io.fairledger.core.workflow;

import java.util.List;
import java.util.Objects;

/**
 * One job of a workflow (FlowTime (Hu et al., 2018) section IV): {@code tasks} tasks of {@code taskRuntimeSeconds}
 * each, each holding {@code taskCpus} CPUs, run after every job in {@code dependsOn} has finished.
 */
public record WorkflowJob(String id, int tasks, double taskRuntimeSeconds, int taskCpus, List<String> dependsOn) {

    public WorkflowJob {
        Objects.requireNonNull(id, "id");
        if (id.isBlank()) {
            throw new IllegalArgumentException("workflow job id must not be blank");
        }
        if (tasks < 1) {
            throw new IllegalArgumentException("job " + id + ": tasks must be >= 1, got " + tasks);
        }
        if (!(taskRuntimeSeconds > 0) || Double.isInfinite(taskRuntimeSeconds)) {
            throw new IllegalArgumentException(
                    "job " + id + ": task runtime must be positive and finite, got " + taskRuntimeSeconds);
        }
        if (taskCpus < 1) {
            throw new IllegalArgumentException("job " + id + ": task CPUs must be >= 1, got " + taskCpus);
        }
        dependsOn = List.copyOf(dependsOn);
    }

    /** Shortest possible runtime: every task in parallel. */
    public double minRuntimeSeconds() {
        return taskRuntimeSeconds;
    }

    /** Resource demand {@code tasks x task runtime x task size}, CPU-seconds (docs/domain.md section 10). */
    public double demandCpuSeconds() {
        return tasks * taskRuntimeSeconds * taskCpus;
    }
}
