package io.fairledger.accounting;

import java.sql.SQLException;
import java.util.Optional;

import io.fairledger.core.replay.Replay;
import io.fairledger.tenancy.LedgerSettings;

/**
 * The ledger states the live ledgers store (their checkpoints, docs/architecture.md "Checkpoints"), for a what-if or a
 * period close ({@link PeriodCloser}) that need not replay from the registration. Declared here and implemented by {@code live.BoundedReplays}, so that
 * accounting does not depend on the live ledgers.
 */
public interface StoredLedgerStates {

    /**
     * A stored state, restored.
     *
     * @param replay
     *            the replay as it stood, under the settings it was stored under
     * @param feed
     *            the fact feed as it stood (node capacities)
     * @param lastApplied
     *            the event time of the latest fact it holds: it holds every stored fact up to this instant
     * @param facts
     *            how many facts it holds
     */
    record State(Replay replay, LedgerFeed feed, long lastApplied, long facts) {
    }

    /**
     * The newest usable state of {@code clusterId} stored under {@code settings} whose latest fact is at or before
     * {@code atMs}: it holds every fact with event time up to its {@link State#lastApplied} stored before
     * {@code horizon}. Empty when there is none.
     */
    Optional<State> newestAtOrBefore(String clusterId, LedgerSettings settings, long atMs, String horizon)
            throws SQLException;
}
