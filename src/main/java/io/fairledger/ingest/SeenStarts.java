package io.fairledger.ingest;

import java.util.HashMap;
import java.util.Map;

import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.facts.LedgerFact;

/**
 * The task starts the intake has accepted, for {@link KnownStarts}: a Mesos TASK_RUNNING without resources finds its
 * task's TASK_STAGING here. Holds at most {@code capacity} tasks and is emptied when full (the consumer then asks
 * PostgreSQL, {@code fairledger account} never fills it). One thread.
 */
public final class SeenStarts implements KnownStarts {

    private record Task(String clusterId, String taskId) {
    }

    private final int capacity;
    private final Map<Task, LedgerEvent.TaskStarted> seen = new HashMap<>();

    public SeenStarts(int capacity) {
        this.capacity = capacity;
    }

    /** Remembers the start among {@code facts}, if there is one. */
    public void saw(Iterable<LedgerFact> facts) {
        for (LedgerFact fact : facts) {
            if (fact instanceof LedgerFact.Event e && e.event() instanceof LedgerEvent.TaskStarted s) {
                if (seen.size() >= capacity) {
                    seen.clear();
                }
                seen.putIfAbsent(new Task(s.clusterId(), s.taskId()), s);
            }
        }
    }

    @Override
    public LedgerEvent.TaskStarted find(String clusterId, String taskId) {
        return seen.get(new Task(clusterId, taskId));
    }
}
