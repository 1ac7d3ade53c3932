package io.fairledger.accounting;

import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.fairledger.accounting.PeriodCloser.ClosedPeriod;
import io.fairledger.core.chargeback.Statement;
import io.fairledger.core.replay.ReplayConfig;
import io.fairledger.tenancy.LedgerSettings;

/**
 * The replays the period closer states periods by ({@link PeriodCloser}), over a cluster's stored facts: none when a
 * ledger holding every fact stored has stated them and no later stored fact changes them; else each from the newest
 * usable stored state or the registration, streamed ({@link StreamedReplay}); within one close, a call at the same
 * position under the same settings continues the replay of the call before ({@link Continued}). Not thread-safe: one
 * closer's.
 */
final class ClosingReplays {

    private final String clusterId;
    private final PeriodCloser.StoredFacts facts;
    /** The replay the next {@link #statements} call may continue, until {@link #forget}. */
    private Continued continued;
    /** How many calls continued the replay before them (for tests). */
    private long continuedCount;
    /** How many calls took the statements a ledger held, replaying nothing; how many replayed. */
    private long heldCount;
    private long replayedCount;

    ClosingReplays(String clusterId, PeriodCloser.StoredFacts facts) {
        this.clusterId = clusterId;
        this.facts = facts;
    }

    /**
     * The statements under {@code settings} of every period ending in {@code [firstEnd, through]} (and of those before
     * it the start state holds), from the facts stored up to {@code position}, the earliest stored after it being at
     * {@code storedAfter}. When that is after {@code through}, the statements a ledger holding every fact stored has
     * stated, if one holds them ({@link PeriodCloser.StoredFacts#held}): a period's statement depends only on the facts
     * up to its end, and those stored after the position are all later. Else the newest usable stored state holding
     * them, or the registration, then the facts after it up to {@code through} streamed. A state past {@code through}
     * has those periods stated already, from every fact before their end (it lacks no fact at or before its latest).
     * The replay of the call before, at the same position under the same settings and from a start holding the same
     * periods, is continued instead ({@link Continued}).
     */
    List<Statement> statements(LedgerSettings settings, long position, long firstEnd, long through,
            long storedAfter) {
        if (through < storedAfter) {
            Optional<List<Statement>> held = facts.held(settings, firstEnd, through);
            if (held.isPresent()) {
                heldCount++;
                return held.get();
            }
        }
        replayedCount++;
        Continued reused = continued != null && continued.continues(settings, position, firstEnd) ? continued : null;
        StreamedReplay replay;
        long from;
        if (reused != null) {
            continuedCount++;
            replay = reused.replay();
            from = reused.readThrough() + 1;
        } else {
            ReplayConfig config = settings.toReplayConfig(clusterId, Instant.ofEpochMilli(through));
            Optional<StoredLedgerStates.State> start = facts.newestState(settings, position, firstEnd);
            replay = StreamedReplay.from(start, config);
            from = StreamedReplay.firstAfter(start);
        }
        if (from <= through) {
            facts.forEachStored(position, from, through, replay::accept);
        }
        continued = new Continued(settings, position, reused == null ? firstEnd : reused.firstEnd(),
                Math.max(from - 1, through), replay);
        return replay.statementsThrough(through);
    }

    /**
     * The closed periods that received a late fact by the step's position, recomputed from the facts stored up to it
     * under the settings stored with each, by period id.
     */
    Map<String, StatementView> recomputed(List<ClosedPeriod> closed, ClosingSteps.Step step) {
        Map<LedgerSettings, long[]> endsBySettings = new LinkedHashMap<>();
        for (ClosedPeriod c : closed) {
            Long earliest = step.lateSince().get(c.position());
            long end = c.statement().end().toEpochMilli();
            if (earliest != null && earliest < end) {
                endsBySettings.merge(c.settings(), new long[]{end, end},
                        (a, b) -> new long[]{Math.min(a[0], b[0]), Math.max(a[1], b[1])});
            }
        }
        Map<String, LedgerSettings> keptUnder = new HashMap<>();
        closed.forEach(c -> keptUnder.put(c.statement().period(), c.settings()));
        Map<String, StatementView> out = new LinkedHashMap<>();
        endsBySettings.forEach((settings, ends) -> {
            for (Statement s : statements(settings, step.position(), ends[0], ends[1],
                    step.storedAfter())) {
                StatementView view = StatementView.of(s, StatementView.CLOSED, settings.currency());
                if (settings.equals(keptUnder.get(view.period()))) {
                    out.put(view.period(), view);
                }
            }
        });
        return out;
    }

    /** Ends a close: the next call starts from a stored state (the facts stored change between closes). */
    void forget() {
        continued = null;
    }

    /** How many calls continued the replay of the call before, so far. */
    long continued() {
        return continuedCount;
    }

    /** How many calls took the statements a ledger held, so far. */
    long held() {
        return heldCount;
    }

    /** How many calls replayed the stored facts (or continued a replay), so far. */
    long replayed() {
        return replayedCount;
    }

    /**
     * The replay of the latest {@link #statements} call: {@code replay} holds the facts stored up to {@code position}
     * with event time up to {@code readThrough}, under {@code settings}, and the statement of every period ending at or
     * after {@code firstEnd}. A later call at the same position, under the same settings, asking from a period end at
     * or after {@code firstEnd}, would replay the same facts from a stored state (a recomputation of the closed periods
     * that received late facts, then the close of the next ones, read most of the same days twice): it reads only the
     * facts after {@code readThrough}. Equal by the rule every stored state keeps: a usable state and the facts after
     * it give the ledger of every fact, whichever state it starts from.
     */
    private record Continued(LedgerSettings settings, long position, long firstEnd, long readThrough,
            StreamedReplay replay) {

        boolean continues(LedgerSettings asked, long askedPosition, long askedFirstEnd) {
            return position == askedPosition && firstEnd <= askedFirstEnd && settings.equals(asked);
        }
    }
}
