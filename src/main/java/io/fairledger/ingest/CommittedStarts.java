package io.fairledger.ingest;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.facts.Dedupe;
import io.fairledger.facts.LedgerFact;
import io.fairledger.facts.SourcedFact;

/**
 * The task starts this consumer knows to be stored: those of the batches it committed, until the task's finish is
 * committed too. A YARN container's finish repeats its start (see {@link Normaliser}: a finish that carries the start
 * time also yields the start), so without this nearly every batch would send PostgreSQL rows its primary key rejects,
 * and one rejected row sends the whole batch the slower way ({@link BatchStore}). Skipping a known start changes nothing
 * in the books: only a start the stored one would keep out is skipped; an earlier one ({@link Dedupe#replaces}) is sent
 * and replaces it.
 * <p>
 * Stored facts are never deleted, so a start once known stays stored; a start this set does not know (another replica
 * committed it, this one restarted, or the set was full) is sent as before and deduplicated by PostgreSQL. The set
 * holds about one entry per running task and is emptied when it reaches its capacity. Consumer thread only.
 */
final class CommittedStarts {

    private record Task(String clusterId, String taskId) {
    }

    private final int capacity;
    private final Map<Task, LedgerFact> stored = new HashMap<>();

    CommittedStarts(int capacity) {
        this.capacity = capacity;
    }

    /** Whether {@code fact} is a task start that a start known to be stored keeps out. */
    boolean known(LedgerFact fact) {
        if (fact instanceof LedgerFact.Event e && e.event() instanceof LedgerEvent.TaskStarted s) {
            LedgerFact kept = stored.get(new Task(s.clusterId(), s.taskId()));
            return kept != null && !Dedupe.replaces(fact, kept);
        }
        return false;
    }

    /** {@code facts} are committed: their starts are stored; the tasks they finish need theirs no longer. */
    void committed(List<SourcedFact> facts) {
        for (SourcedFact s : facts) {
            if (s.fact() instanceof LedgerFact.Event e) {
                if (e.event() instanceof LedgerEvent.TaskStarted started) {
                    if (stored.size() >= capacity) {
                        stored.clear();
                    }
                    Task task = new Task(started.clusterId(), started.taskId());
                    LedgerFact kept = stored.get(task);
                    if (kept == null || Dedupe.replaces(s.fact(), kept)) {
                        stored.put(task, s.fact());
                    }
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
