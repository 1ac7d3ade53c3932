package io.fairledger.core.ledger;

/**
 * What {@link ClusterLedger#apply(LedgerEvent)} did with an event. Every outcome other than {@link #APPLIED} left the
 * ledger exactly as it was, and is counted in {@link ClusterLedger#ignoredEvents()}.
 */
public enum Outcome {
    /** The event was integrated. */
    APPLIED,
    /** A start for a task id that is already running: ignored, the first start stands. */
    IGNORED_DUPLICATE_START,
    /** A finish for a task id that is not running (never started, or already finished): ignored. */
    IGNORED_UNKNOWN_TASK,
    /**
     * The event's time is before the ledger's clock: the ledger cannot integrate it exactly in place. The caller
     * re-runs {@link io.fairledger.core.replay.Replay} with the event, and a closed period's difference becomes an
     * adjustment line.
     */
    REJECTED_LATE,
    /** The event names another cluster. */
    REJECTED_OTHER_CLUSTER
}
