package io.fairledger.ingest;

import io.fairledger.core.ledger.LedgerEvent;

/**
 * Where the intake finds a task's earlier start: a Mesos status update does not repeat the task's resources (only the
 * task itself, in TASK_ADDED or the framework's launch, carries them), so a TASK_RUNNING without resources takes them
 * from the start stored or seen before it.
 */
@FunctionalInterface
public interface KnownStarts {

    /** None known: every start without resources then waits for them ({@link WaitingStarts}). */
    KnownStarts NONE = (clusterId, taskId) -> null;

    /** The start of {@code taskId} in {@code clusterId} stored or seen so far, or null when none is known. */
    LedgerEvent.TaskStarted find(String clusterId, String taskId);
}
