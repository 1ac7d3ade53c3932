package io.fairledger.ingest.schema;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.apache.avro.generic.GenericRecord;

/**
 * Turns Avro records read with the current schema into the Java event records. The record has already been read
 * against the schema, so required fields are present and of the right type.
 */
final class AvroRecords {

    private AvroRecords() {
    }

    static FairledgerEvent yarnContainer(GenericRecord r) {
        return new YarnContainerEvent(string(r, "eventId"), string(r, "cluster"), instant(r, "eventTime"),
                string(r, "applicationId"), string(r, "attemptId"), string(r, "containerId"), string(r, "queue"),
                string(r, "user"), (Long) r.get("allocatedMemoryMb"), (Integer) r.get("allocatedVcores"),
                (Integer) r.get("allocatedGpus"), string(r, "node"),
                YarnContainerState.valueOf(symbol(r, "state")), (Integer) r.get("exitStatus"),
                instant(r, "createdTime"), instant(r, "startedTime"), instant(r, "finishedTime"));
    }

    static FairledgerEvent mesosTask(GenericRecord r) {
        return new MesosTaskStatus(string(r, "eventId"), string(r, "cluster"), instant(r, "eventTime"),
                string(r, "frameworkId"), string(r, "role"), string(r, "taskId"), string(r, "agentId"),
                string(r, "executorId"), MesosTaskState.valueOf(symbol(r, "state")), (Double) r.get("cpus"),
                (Double) r.get("memMb"), (Double) r.get("gpus"), string(r, "statusUuid"));
    }

    static FairledgerEvent jobSubmitted(GenericRecord r) {
        return new JobSubmitted(string(r, "eventId"), string(r, "cluster"), instant(r, "eventTime"),
                string(r, "jobId"), string(r, "tenant"), (Integer) r.get("requestedTasks"),
                (Long) r.get("relativeDeadlineSeconds"), string(r, "workflowId"));
    }

    static FairledgerEvent jobFinished(GenericRecord r) {
        return new JobFinished(string(r, "eventId"), string(r, "cluster"), instant(r, "eventTime"),
                string(r, "jobId"), string(r, "tenant"), (Double) r.get("compTimeCpuSeconds"),
                (Double) r.get("allocatedCpus"), JobOutcome.valueOf(symbol(r, "outcome")));
    }

    static FairledgerEvent demand(GenericRecord r) {
        return new DemandReported(string(r, "eventId"), string(r, "cluster"), instant(r, "eventTime"),
                string(r, "tenant"), string(r, "applicationId"), (Double) r.get("pendingCpus"),
                (Long) r.get("pendingMemoryMb"), (Double) r.get("pendingGpus"), (Integer) r.get("pendingTasks"));
    }

    static FairledgerEvent capacity(GenericRecord r) {
        return new CapacityChanged(string(r, "eventId"), string(r, "cluster"), instant(r, "eventTime"),
                CapacityChange.valueOf(symbol(r, "change")), string(r, "node"), (Double) r.get("cpus"),
                (Long) r.get("memoryMb"), (Double) r.get("gpus"));
    }

    static FairledgerEvent workflow(GenericRecord r) {
        List<WorkflowSubmitted.WorkflowJob> jobs = new ArrayList<>();
        for (Object item : (List<?>) r.get("jobs")) {
            GenericRecord job = (GenericRecord) item;
            List<String> dependsOn = new ArrayList<>();
            for (Object dependency : (List<?>) job.get("dependsOn")) {
                dependsOn.add(dependency.toString());
            }
            jobs.add(new WorkflowSubmitted.WorkflowJob(string(job, "jobId"), (Integer) job.get("requestedTasks"),
                    (Double) job.get("estimatedCpuSeconds"), dependsOn));
        }
        return new WorkflowSubmitted(string(r, "eventId"), string(r, "cluster"), instant(r, "eventTime"),
                string(r, "workflowId"), string(r, "tenant"), (Long) r.get("relativeDeadlineSeconds"), jobs);
    }

    private static String string(GenericRecord r, String field) {
        Object value = r.get(field);
        return value == null ? null : value.toString();
    }

    private static String symbol(GenericRecord r, String field) {
        return r.get(field).toString();
    }

    private static Instant instant(GenericRecord r, String field) {
        Object value = r.get(field);
        return value == null ? null : Instant.ofEpochMilli((Long) value);
    }
}
