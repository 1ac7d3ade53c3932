package io.fairledger.ingest;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.facts.LedgerFact;
import io.fairledger.ingest.schema.FairledgerEvent;
import io.fairledger.ingest.schema.MesosTaskStatus;

/**
 * The starts of the Mesos tasks the intake has accepted, for {@link KnownStarts}: a TASK_RUNNING without resources
 * finds its task's TASK_STAGING here. Only Mesos events are kept (no other event needs a lookup); the consumer forgets
 * a task once its finish is committed ({@link #stored}), so the set holds about one entry per running Mesos task. It
 * holds at most {@code capacity} and is emptied when full (the consumer then asks PostgreSQL; {@code fairledger
 * account} never fills it). One thread.
 */
public final class SeenStarts implements KnownStarts {

    private record Task(String clusterId, String taskId) {
    }

    private final int capacity;
    private final Map<Task, LedgerEvent.TaskStarted> seen = new HashMap<>();

    public SeenStarts(int capacity) {
        this.capacity = capacity;
    }

    /** The intake accepted {@code event} as {@code facts}: a Mesos task's start is remembered. */
    public void saw(FairledgerEvent event, List<LedgerFact> facts) {
        if (!(event instanceof MesosTaskStatus)) {
            return;
        }
        for (LedgerFact fact : facts) {
            if (fact instanceof LedgerFact.Event e && e.event() instanceof LedgerEvent.TaskStarted s) {
                if (seen.size() >= capacity) {
                    seen.clear();
                }
                seen.putIfAbsent(new Task(s.clusterId(), s.taskId()), s);
            }
        }
    }

    /**
     * The finishes among {@code facts} are stored, and with them their tasks' starts: those tasks are forgotten here
     * (PostgreSQL answers for them). {@code fairledger account}, which has no store, never forgets.
     */
    public void stored(Iterable<LedgerFact> facts) {
        for (LedgerFact fact : facts) {
            if (fact instanceof LedgerFact.Event e && e.event() instanceof LedgerEvent.TaskFinished f) {
                seen.remove(new Task(f.clusterId(), f.taskId()));
            }
        }
    }

    @Override
    public LedgerEvent.TaskStarted find(String clusterId, String taskId) {
        return seen.get(new Task(clusterId, taskId));
    }
}
