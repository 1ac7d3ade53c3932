package io.fairledger.admission;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fairledger.core.workflow.FlowTimePlanner;
import io.fairledger.ingest.schema.Decoded;
import io.fairledger.ingest.schema.EventDecoder;
import io.fairledger.ingest.schema.EventTopics;
import io.fairledger.ingest.schema.FairledgerEvent;
import io.fairledger.ingest.schema.WorkflowSubmitted;

/**
 * The two readers of admission log rows: the JSON payload the server wrote for an HTTP or policy row
 * ({@link LogEntry} records), and the Kafka event a Kafka row carries, decoded exactly as the consumer decodes it.
 * Pure: the same row always reads the same way, so a replay refuses what the first application refused.
 */
final class AdmissionRows {

    /** The codec of the server's own rows; unknown members are ignored so old rows stay readable. */
    static final ObjectMapper JSON = new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private final EventDecoder decoder = new EventDecoder(Clock.systemUTC());

    /**
     * The payload of a server-written row.
     *
     * @throws IllegalArgumentException
     *             when it cannot be read as {@code type}
     */
    static <T> T read(LogEntry entry, Class<T> type) {
        try {
            return JSON.readValue(entry.payload(), type);
        } catch (IOException e) {
            throw new IllegalArgumentException("unreadable " + entry.kind() + " row: " + e.getMessage());
        }
    }

    /**
     * The event of a Kafka row.
     *
     * @throws IllegalArgumentException
     *             naming the rejection when it does not decode
     */
    FairledgerEvent event(LogEntry entry) {
        String topic = entry.kind().equals(LogEntry.WORKFLOW_SUBMITTED) ? EventTopics.WORKFLOWS : EventTopics.JOBS;
        Decoded decoded = decoder.decode(topic, entry.contentType(), entry.payload());
        if (decoded instanceof Decoded.Rejected rejected) {
            throw new IllegalArgumentException("undecodable " + entry.kind() + ": " + rejected.rejection().describe());
        }
        return ((Decoded.Ok) decoded).event();
    }

    /**
     * The submission a Kafka {@code WorkflowSubmitted} stands for, with the FlowTime defaults (slots of
     * {@value FlowTimePlanner#DEFAULT_SLOT_SECONDS} s, the paper's deadline slack); null when a job has no
     * {@code estimatedCpuSeconds}, which the caller records as not planned.
     */
    static LogEntry.WorkflowSubmission workflow(WorkflowSubmitted w) {
        List<LogEntry.WorkflowSubmission.Job> list = new ArrayList<>();
        for (WorkflowSubmitted.WorkflowJob j : w.jobs()) {
            if (j.estimatedCpuSeconds() == null) {
                return null;
            }
            list.add(new LogEntry.WorkflowSubmission.Job(j.jobId(), j.requestedTasks(),
                    j.estimatedCpuSeconds() / j.requestedTasks(), 1, j.dependsOn()));
        }
        return new LogEntry.WorkflowSubmission(w.workflowId(), w.tenant(), w.relativeDeadlineSeconds(),
                FlowTimePlanner.DEFAULT_SLOT_SECONDS, FlowTimePlanner.DEFAULT_DEADLINE_SLACK_SECONDS, list);
    }

    /** The first job of {@code w} without an estimate, or null. */
    static String unestimatedJob(WorkflowSubmitted w) {
        for (WorkflowSubmitted.WorkflowJob j : w.jobs()) {
            if (j.estimatedCpuSeconds() == null) {
                return j.jobId();
            }
        }
        return null;
    }
}
