package io.fairledger.core.workflow;

/** The time window a decomposed workflow job must run in: from {@code releaseSeconds} to {@code deadlineSeconds}. */
public record JobWindow(String workflowId, String jobId, double releaseSeconds, double deadlineSeconds) {
}
