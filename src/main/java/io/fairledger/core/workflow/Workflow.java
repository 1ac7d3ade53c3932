package io.fairledger.core.workflow;

import java.util.List;
import java.util.Objects;

/**
 * A DAG of jobs with one deadline (docs/domain.md section 1): it starts at {@code startSeconds} and must end by
 * {@code startSeconds + deadlineSeconds}.
 */
public record Workflow(String id, List<WorkflowJob> jobs, double startSeconds, double deadlineSeconds) {

    public Workflow {
        Objects.requireNonNull(id, "id");
        jobs = List.copyOf(jobs);
        if (jobs.isEmpty()) {
            throw new IllegalArgumentException("workflow " + id + " has no jobs");
        }
        if (!(startSeconds >= 0) || Double.isInfinite(startSeconds)) {
            throw new IllegalArgumentException("workflow " + id + ": start must be >= 0, got " + startSeconds);
        }
        if (!(deadlineSeconds > 0) || Double.isInfinite(deadlineSeconds)) {
            throw new IllegalArgumentException(
                    "workflow " + id + ": deadline must be positive, got " + deadlineSeconds);
        }
    }

    public double deadlineAbsSeconds() {
        return startSeconds + deadlineSeconds;
    }
}
