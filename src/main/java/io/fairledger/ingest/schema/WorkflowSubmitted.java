package io.fairledger.ingest.schema;

import java.time.Instant;
import java.util.List;

/**
 * A workflow, a directed acyclic graph of jobs with one deadline, was submitted (schema
 * {@code kafka-schemas/WorkflowSubmitted.avsc}). The decoder guarantees at least one job, unique job ids, dependencies
 * only on jobs of the workflow and no cycles.
 *
 * @param relativeDeadlineSeconds deadline for the whole workflow, in seconds after {@link #eventTime()}
 */
public record WorkflowSubmitted(String eventId, String cluster, Instant eventTime, String workflowId, String tenant,
        long relativeDeadlineSeconds, List<WorkflowJob> jobs) implements FairledgerEvent {

    public WorkflowSubmitted {
        jobs = List.copyOf(jobs);
    }

    /**
     * One job (vertex) of a workflow.
     *
     * @param estimatedCpuSeconds estimated computation time in CPU-seconds; null when unknown
     * @param dependsOn ids of the jobs of the same workflow that must finish before this one starts
     */
    public record WorkflowJob(String jobId, int requestedTasks, Double estimatedCpuSeconds, List<String> dependsOn) {

        public WorkflowJob {
            dependsOn = List.copyOf(dependsOn);
        }
    }
}
