package io.fairledger.accounting;

import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

import io.fairledger.core.chargeback.Statement;
import io.fairledger.facts.FactCursor;
import io.fairledger.facts.LedgerFact;
import io.fairledger.facts.RetentionFloors;
import io.fairledger.facts.StoredTransaction;
import io.fairledger.tenancy.LedgerSettings;

/**
 * The stored facts of one cluster below a horizon of the fact cursor, as the period closer reads them
 * ({@link PeriodCloser.StoredFacts}): the transactions after a position by one aggregate, the facts up to a position (the horizon just after it) by the
 * cursor, in event-time order, the live ledgers' checkpoints as starting states, and what the live ledger at the same
 * horizon has stated. A database error is an
 * {@link IllegalStateException} naming the cluster.
 */
final class StoredFactsBelow implements PeriodCloser.StoredFacts {

    private final FactCursor cursor;
    private final StoredLedgerStates states;
    private final String clusterId;
    private final String horizon;
    private final Optional<RetentionFloors.Floor> floor;
    private final HeldStatements held;

    /**
     * @param floor the cluster's retention floor, if retention dropped some of its facts: then only a stored state at
     *              or after the pinned checkpoint can start a replay
     * @param held  what the live ledger holding every fact stored before {@code horizon} has stated, if there is one
     */
    StoredFactsBelow(FactCursor cursor, StoredLedgerStates states, String clusterId, String horizon,
            Optional<RetentionFloors.Floor> floor, HeldStatements held) {
        this.cursor = cursor;
        this.states = states;
        this.clusterId = clusterId;
        this.horizon = horizon;
        this.floor = floor;
        this.held = held;
    }

    @Override
    public Optional<List<Statement>> held(LedgerSettings settings, long firstEnd, long through) {
        return held.held(settings, firstEnd, through);
    }

    @Override
    public void forEachTransactionAfter(long position, Consumer<StoredTransaction> sink) {
        try {
            cursor.forEachTransaction(clusterId, after(position), horizon, sink);
        } catch (SQLException e) {
            throw unreadable(e);
        }
    }

    @Override
    public void forEachStored(long position, long fromMs, long untilMs, Consumer<LedgerFact> sink) {
        try {
            cursor.forEachBetween(clusterId, fromMs, untilMs, after(position), sink);
        } catch (SQLException e) {
            throw unreadable(e);
        }
    }

    @Override
    public Optional<StoredLedgerStates.State> newestState(LedgerSettings settings, long position, long fromEndMs) {
        Optional<StoredLedgerStates.State> state;
        try {
            state = states.newestAtOrBefore(clusterId, settings, Long.MAX_VALUE, after(position));
            // a live ledger's checkpoint holds only the periods not stored when it was taken: an older one then
            while (state.isPresent() && !state.get().replay().holdsClosedFrom(fromEndMs)) {
                state = states.newestAtOrBefore(clusterId, settings, state.get().lastApplied() - 1, after(position));
            }
        } catch (SQLException e) {
            throw unreadable(e);
        }
        if (floor.isPresent() && state.map(s -> s.lastApplied() < floor.get().checkpointMs()).orElse(true)) {
            throw new IllegalStateException("cluster " + clusterId + ": its facts before "
                    + floor.get().replayableFrom() + " were dropped by retention, and no stored state from then on "
                    + "holds the facts stored up to position " + position + " under the settings asked for (the "
                    + "pinned checkpoint is kept under settings version " + floor.get().settingsVersion() + ")");
        }
        return state;
    }

    /** The horizon just after {@code position}: the facts below it are those stored at or before the position. */
    private static String after(long position) {
        return Long.toString(position + 1);
    }

    private IllegalStateException unreadable(SQLException e) {
        return new IllegalStateException("cannot read the facts of cluster " + clusterId + ": " + e.getMessage(), e);
    }
}
