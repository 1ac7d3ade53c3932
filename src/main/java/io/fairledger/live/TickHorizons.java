package io.fairledger.live;

import java.util.Map;
import java.util.OptionalLong;

import org.jboss.logging.Logger;

import io.fairledger.accounting.ClosingService;

/**
 * Where a tick of the live ledgers stops ({@link LiveLedgers}): at the fact cursor's horizon, or just after the first
 * transaction before it at which one of the clusters' periods is due to close. A ledger that holds every fact stored up
 * to that transaction and none after it has stated the periods that close there exactly as the facts stored up to it
 * do, so the period closer takes their statements from it instead of replaying the day from PostgreSQL
 * ({@code accounting.HeldStatements}); the next tick goes on to the horizon. Any horizon is a tick's (ticks fall
 * anywhere), so this changes what is computed, never what the books say.
 */
final class TickHorizons {

    private static final Logger LOG = Logger.getLogger(TickHorizons.class);

    private TickHorizons() {
    }

    /**
     * The horizon the tick from {@code from} stops at: {@code next}, or the one just after the earliest position in
     * {@code [from, next)} at which a period is due to close.
     *
     * @param spans   the earliest and latest event time of each cluster's facts stored in {@code [from, next)}
     * @param ledgers the live ledgers as the tick before left them (a cluster without one is built, not closed from)
     */
    static String stop(String from, String next, Map<String, long[]> spans, Map<String, LiveLedger> ledgers,
            ClosingService closing) {
        long first = Long.parseLong(from);
        long stop = Long.parseLong(next);
        for (Map.Entry<String, long[]> span : spans.entrySet()) {
            LiveLedger ledger = ledgers.get(span.getKey());
            if (ledger == null) {
                continue;
            }
            long latest = Math.max(ledger.watermark(), span.getValue()[1]);
            OptionalLong due;
            try {
                due = closing.firstDue(span.getKey(), latest, next);
            } catch (RuntimeException e) {
                // one cluster's closing cannot stop every cluster's tick: it closes as before, by a replay (or its
                // closing fails there, logged, as it did)
                LOG.warnf("cluster %s: where its periods close could not be read, its tick goes on: %s",
                        span.getKey(), e);
                continue;
            }
            // a period due before this tick's facts (a close that failed) is closed as before, by a replay
            if (due.isPresent() && due.getAsLong() >= first) {
                stop = Math.min(stop, due.getAsLong() + 1);
            }
        }
        return Long.toString(stop);
    }
}
