package io.fairledger.ingest;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.facts.Dedupe;
import io.fairledger.facts.FactCodec;
import io.fairledger.facts.LedgerFact;
import io.fairledger.facts.SourcedFact;

/**
 * The task starts this consumer knows to be stored: those of the batches it committed, while the task runs and, after
 * its finish is committed, among the {@code capacity} tasks finished last. A YARN container's finish repeats its start
 * (see {@link Normaliser}: a finish that carries the start time also yields the start), so without this nearly every
 * batch would send PostgreSQL rows its primary key rejects, and one rejected row sends the whole batch the slower way
 * ({@link BatchStore}). The finished tasks count too: a start delivered late, after its container's finish (which
 * stored the start it repeats), would otherwise send its batch the slower way; with 5 % of events up to a day late
 * nearly every batch went that way (docs/benchmarks.md, "Issue #33"). Skipping a known start changes nothing in the
 * books: only a start the stored one would keep out is skipped; an earlier one ({@link Dedupe#replaces}) is sent and
 * replaces it.
 * <p>
 * Stored facts are never deleted, so a start once known stays stored (retention drops whole closed months, whose late
 * starts the consumer refuses); a start this set does not know (another replica committed it, this one restarted, the
 * set was full, the task finished long ago) is sent as before and deduplicated by PostgreSQL. The running tasks' set
 * holds about one entry per running task and is emptied when it reaches its capacity; the finished tasks' set lets the
 * task finished first go. Consumer thread only.
 */
final class CommittedStarts {

    private record Task(String clusterId, String taskId) {
    }

    /**
     * A finished task's stored start, compact (about 270 bytes with its key, against about 440 for the fact,
     * {@code KnownStartsSize}): its event time and the first 128 bits of the SHA-256 of its stored encoding
     * ({@link FactCodec#encode}), equal only for equal facts.
     */
    private record FinishedStart(long at, long high, long low) {

        static FinishedStart of(LedgerFact start) {
            ByteBuffer digest = ByteBuffer.wrap(sha256(FactCodec.encode(start)));
            return new FinishedStart(start.at(), digest.getLong(), digest.getLong());
        }

        /** Whether this stored start keeps {@code start} out: it is earlier, or the same fact. */
        boolean keepsOut(LedgerFact start) {
            return start.at() > at || start.at() == at && equals(of(start));
        }
    }

    /**
     * The most heap one unit of {@code fairledger.ingest.known-starts} may take: a running task's start here (440
     * bytes), a finished task's (267, {@code KnownStartsSize}) and a running Mesos task's start kept for its updates
     * (about 150).
     */
    static final long BYTES_PER_KNOWN_START = 860;

    private final int capacity;
    private final Map<Task, LedgerFact> stored = new HashMap<>();
    private final Map<Task, FinishedStart> finished;

    CommittedStarts(int capacity) {
        this.capacity = capacity;
        this.finished = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Task, FinishedStart> eldest) {
                return size() > capacity;
            }
        };
    }

    /**
     * What is wrong with {@code fairledger.ingest.known-starts} = {@code knownStarts} on a heap of {@code maxHeap}
     * bytes, or null: negative, or sets that full would take more than the heap.
     */
    static String problem(long knownStarts, long maxHeap) {
        long most = maxHeap / BYTES_PER_KNOWN_START;
        if (knownStarts >= 0 && knownStarts <= most) {
            return null;
        }
        return "fairledger.ingest.known-starts must be between 0 and " + most + " (" + (maxHeap >> 20)
                + " MB of heap at up to " + BYTES_PER_KNOWN_START + " bytes each), got " + knownStarts;
    }

    /** Whether {@code fact} is a task start that a start known to be stored keeps out. */
    boolean known(LedgerFact fact) {
        if (fact instanceof LedgerFact.Event e && e.event() instanceof LedgerEvent.TaskStarted s) {
            Task task = new Task(s.clusterId(), s.taskId());
            LedgerFact kept = stored.get(task);
            if (kept != null) {
                return !Dedupe.replaces(fact, kept);
            }
            FinishedStart done = finished.get(task);
            return done != null && done.keepsOut(fact);
        }
        return false;
    }

    /**
     * {@code facts} are committed: their starts are stored; the tasks they finish move to the finished ones, whose
     * starts a late delivery may repeat.
     */
    void committed(List<SourcedFact> facts) {
        for (SourcedFact s : facts) {
            if (s.fact() instanceof LedgerFact.Event e && e.event() instanceof LedgerEvent.TaskStarted started) {
                startCommitted(new Task(started.clusterId(), started.taskId()), s.fact());
            } else if (s.fact() instanceof LedgerFact.Event e && e.event() instanceof LedgerEvent.TaskFinished ended) {
                Task task = new Task(ended.clusterId(), ended.taskId());
                LedgerFact start = stored.remove(task);
                if (start != null) {
                    finished.put(task, FinishedStart.of(start));
                }
            }
        }
    }

    /** {@code start}, of {@code task}, is committed. */
    private void startCommitted(Task task, LedgerFact start) {
        FinishedStart done = finished.get(task);
        if (done == null) {
            if (stored.size() >= capacity) {
                stored.clear();
            }
            LedgerFact kept = stored.get(task);
            if (kept == null || Dedupe.replaces(start, kept)) {
                stored.put(task, start);
            }
        } else if (start.at() < done.at()) {
            // an earlier start, stored after the finish, replaced the stored one
            finished.put(task, FinishedStart.of(start));
        } else if (!done.keepsOut(start)) {
            // one at the same instant: which one PostgreSQL kept takes the stored text, not held here
            finished.remove(task);
        }
    }

    /** The running tasks' starts known. */
    int size() {
        return stored.size();
    }

    /** The finished tasks' starts known. */
    int finished() {
        return finished.size();
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
