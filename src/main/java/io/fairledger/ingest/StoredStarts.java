package io.fairledger.ingest;

import java.sql.SQLException;
import java.util.List;

import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.facts.FactCursor;
import io.fairledger.facts.LedgerFact;
import io.fairledger.facts.SourcedFact;
import io.fairledger.ingest.schema.FairledgerEvent;

/**
 * The consumer's {@link KnownStarts}: the Mesos starts it accepted lately ({@link SeenStarts}, which also covers the
 * batches not yet committed), else the start stored in PostgreSQL (another replica's, one from before a restart, or
 * one of a task already finished). Asked only
 * for a Mesos update without resources. Consumer thread only.
 */
final class StoredStarts implements KnownStarts {

    private final SeenStarts seen;
    private final FactCursor cursor;

    StoredStarts(int capacity, FactCursor cursor) {
        this.seen = new SeenStarts(capacity);
        this.cursor = cursor;
    }

    /** {@code facts} are committed: the tasks they finish are PostgreSQL's to answer for. */
    void committed(List<SourcedFact> facts) {
        seen.stored(facts.stream().map(SourcedFact::fact).toList());
    }

    /** The intake accepted {@code event} as {@code facts}. */
    void saw(FairledgerEvent event, List<LedgerFact> facts) {
        seen.saw(event, facts);
    }

    /** @throws StorageUnavailable when PostgreSQL cannot be asked: the batch fails and is read again */
    @Override
    public LedgerEvent.TaskStarted find(String clusterId, String taskId) {
        LedgerEvent.TaskStarted start = seen.find(clusterId, taskId);
        if (start != null) {
            return start;
        }
        try {
            LedgerFact stored = cursor.taskStart(clusterId, taskId);
            return stored instanceof LedgerFact.Event e && e.event() instanceof LedgerEvent.TaskStarted s ? s : null;
        } catch (SQLException e) {
            throw new StorageUnavailable(e);
        }
    }

    /** PostgreSQL could not be asked for a stored start. */
    static final class StorageUnavailable extends RuntimeException {
        StorageUnavailable(SQLException cause) {
            super("cannot read a task's stored start: " + cause.getMessage(), cause);
        }
    }
}
