package io.fairledger.ingest;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.fairledger.facts.LedgerFact;
import io.fairledger.facts.SourcedFact;
import io.fairledger.core.ledger.LedgerEvent;

/**
 * The task starts this consumer knows to be stored: those of the batches it committed, until the task's finish is
 * committed too. A YARN container's finish repeats its start (see {@link Normaliser}: a finish that carries the start
 * time also yields the start), so without this nearly every batch would send PostgreSQL rows its primary key rejects,
 * and one rejected row sends the whole batch the slower way ({@link BatchStore}). Skipping a known start changes nothing
 * in the books: the stored start keeps its key, and the first one stored wins anyway.
 * <p>
 * Stored facts are never deleted, so a start once known stays stored; a start this set does not know (another replica
 * committed it, this one restarted, or the set was full) is sent as before and deduplicated by PostgreSQL. The set
 * holds about one entry per running task and is emptied when it reaches its capacity. Consumer thread only.
 */
final class CommittedStarts {

    private record Task(String clusterId, String taskId) {
    }

    private final int capacity;
    private final Set<Task> stored = new HashSet<>();

    CommittedStarts(int capacity) {
        this.capacity = capacity;
    }

    /** Whether {@code fact} is a task start known to be stored already. */
    boolean known(LedgerFact fact) {
        return fact instanceof LedgerFact.Event e && e.event() instanceof LedgerEvent.TaskStarted s
                && stored.contains(new Task(s.clusterId(), s.taskId()));
    }

    /** {@code facts} are committed: their starts are stored; the tasks they finish need theirs no longer. */
    void committed(List<SourcedFact> facts) {
        for (SourcedFact s : facts) {
            if (s.fact() instanceof LedgerFact.Event e) {
                if (e.event() instanceof LedgerEvent.TaskStarted started) {
                    if (stored.size() >= capacity) {
                        stored.clear();
                    }
                    stored.add(new Task(started.clusterId(), started.taskId()));
                } else if (e.event() instanceof LedgerEvent.TaskFinished finished) {
                    stored.remove(new Task(finished.clusterId(), finished.taskId()));
                }
            }
        }
    }

    int size() {
        return stored.size();
    }
}
