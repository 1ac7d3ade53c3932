package io.fairledger.admission;

import java.util.List;

/**
 * One row of a cluster's admission log (table {@code admission_event}, position order). Rows from Kafka keep the
 * record value as received ({@link #JOB_SUBMITTED}, {@link #JOB_FINISHED}, {@link #WORKFLOW_SUBMITTED}, decoded with
 * the ingestion decoder); rows the server writes itself carry one of the JSON payloads below.
 *
 * @param position
 *            gapless position in the cluster's log, from 1
 * @param eventId
 *            unique per cluster
 * @param eventTimeMs
 *            event time; for the server's own rows the instant they were written
 * @param kind
 *            what the row is
 * @param contentType
 *            the Kafka record's content type, null when it had none
 * @param payload
 *            the record value or JSON payload
 */
public record LogEntry(long position, String eventId, long eventTimeMs, String kind, String contentType,
        byte[] payload) {

    /** Kafka {@code JobSubmitted} as the consumer stored it. */
    public static final String JOB_SUBMITTED = "JobSubmitted";
    /** Kafka {@code JobFinished}. */
    public static final String JOB_FINISHED = "JobFinished";
    /** Kafka {@code WorkflowSubmitted}. */
    public static final String WORKFLOW_SUBMITTED = "WorkflowSubmitted";
    /** {@link JobSubmission} from the HTTP API. */
    public static final String HTTP_JOB = "HttpJobSubmitted";
    /** {@link Completion} from the HTTP API. */
    public static final String HTTP_COMPLETION = "HttpJobCompleted";
    /** {@link WorkflowSubmission} from the HTTP API. */
    public static final String HTTP_WORKFLOW = "HttpWorkflowSubmitted";
    /** {@link PolicyChange}: the first row of every cluster's log, and every admin change. */
    public static final String POLICY_CHANGE = "AdmissionPolicyChanged";
    /** A timer pass ({@code decide} at the row's time): queued jobs whose deadline passed are dropped, kills run. */
    public static final String TICK = "AdmissionTick";

    /** A job submitted over HTTP at the row's event time. */
    public record JobSubmission(String jobId, String tenant, int tasks, long deadlineMillis,
            Double estimatedCpuSeconds) {
    }

    /** A completion reported over HTTP; the job finished at the row's event time. */
    public record Completion(String jobId, double compTimeCpuSeconds, String outcome) {
    }

    /** A workflow submitted over HTTP; it starts at the row's event time. */
    public record WorkflowSubmission(String workflowId, String tenant, double deadlineSeconds, double slotSeconds,
            double deadlineSlackSeconds, List<Job> jobs) {

        /** One job (vertex): tasks of {@code taskRuntimeSeconds}, each holding {@code taskCpus} CPUs. */
        public record Job(String id, int tasks, double taskRuntimeSeconds, int taskCpus, List<String> dependsOn) {
        }
    }

    /** The cluster's policy from the row's time on, with the capacity read from its ledger settings then. */
    public record PolicyChange(PolicySettings settings, int capacity) {
    }
}
