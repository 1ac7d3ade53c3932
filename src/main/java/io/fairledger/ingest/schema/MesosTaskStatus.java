package io.fairledger.ingest.schema;

import java.time.Instant;

/**
 * A Mesos task status change (schema {@code kafka-schemas/MesosTaskStatus.avsc}), whether it arrived in the fairledger
 * shape or as a Mesos operator {@code TASK_ADDED}/{@code TASK_UPDATED} event or a {@code TaskStatus}.
 *
 * @param role the role the task's resources are allocated to; null when the event does not carry it
 * @param agentId the agent the task runs on; null when unknown
 * @param executorId the executor; null when the event does not carry it
 * @param cpus CPUs allocated to the task; null when the event does not carry resources
 * @param memMb memory allocated to the task in MB; null when the event does not carry resources
 * @param gpus GPUs allocated to the task; null when the event does not carry resources
 * @param statusUuid the TaskStatus uuid; null when absent
 */
public record MesosTaskStatus(String eventId, String cluster, Instant eventTime, String frameworkId, String role,
        String taskId, String agentId, String executorId, MesosTaskState state, Double cpus, Double memMb, Double gpus,
        String statusUuid) implements FairledgerEvent {
}
