package io.fairledger.accounting;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;

import io.fairledger.core.chargeback.Period;
import io.fairledger.core.chargeback.Statement;
import io.fairledger.facts.LedgerFact;
import io.fairledger.facts.StoredTransaction;
import io.fairledger.tenancy.LedgerSettings;

/**
 * The one rule that closes a cluster's periods (docs/accounting.md, "Closed periods and late events"), a plain class
 * over the stored facts ({@link StoredFacts}) and a store of closed statements, so the server and the in-memory
 * property test run the same code.
 *
 * <p>
 * <b>When.</b> Facts arrive in the order of the transactions that stored them (their position). The closing watermark
 * at a position is the lowest latest event time among the cluster's sources not idle then, never going back
 * ({@link SourceWatermarks}). A period closes at the first position that brings it to its end plus the allowed
 * lateness, whether or not anyone reads it; its statement is computed from every fact stored up to and including that
 * position, under the settings in force, and stored with those settings and the position: it never changes. What
 * decides a closed statement is therefore the sequence of arrivals and of settings changes, never when the books were
 * read or when the server looked. A configuration change first closes what is due, then every period that has ended
 * (its end at or before the latest event time), at the latest position, under the settings in force until then
 * ({@link #closeEnded}): the change takes effect from the start of the open period at the earliest.
 *
 * <p>
 * <b>Late facts.</b> A fact for a closed period (stored after the period's position, for an instant before its end)
 * changes that period's recomputation under the settings stored with it (not today's); {@link StatementAdjustments}
 * turns the difference into adjustment lines carried by the next period to close.
 *
 * <p>
 * <b>Cost.</b> Nothing holds the facts: one pass over the transactions stored since the latest closing position
 * ({@link ClosingSteps}), from the watermarks recorded there ({@link RecordedWatermarks}), then one replay per closing
 * position and per distinct stored settings of the closed periods that received a late fact, each from the newest
 * usable stored ledger state ({@link StoredFacts#newestState}) or the registration, streamed ({@link StreamedReplay});
 * the recomputation under the settings in force and the close at the same position share one replay. None at all when
 * no fact stored after the closing position is at or before the periods' end and a ledger holding every fact stored
 * holds their statements ({@link StoredFacts#held}): the server closes at the horizon just after a closing position
 * so that its live ledger does.
 */
public final class PeriodCloser {

    /** A period as closed: its statement, the settings it was kept under and the position it was computed at. */
    public record ClosedPeriod(StatementView statement, LedgerSettings settings, long position) {
    }

    /** Where closed statements are kept; a period is stored at most once. */
    public interface ClosedStatements {

        /** Every closed period, in period order. */
        List<ClosedPeriod> closed();

        /** Stores {@code period} unless its period is stored already (another replica was first); returns the stored one. */
        ClosedPeriod store(ClosedPeriod period);

        /**
         * Every closed period, in period order, whose statement may lack its lines: where periods close and which
         * received late facts need only the periods, their settings and positions.
         */
        default List<ClosedPeriod> periods() {
            return closed();
        }

        /** The closed periods ending at or after {@code endMs}, in period order, with their whole statements. */
        default List<ClosedPeriod> closedFrom(long endMs) {
            return closed().stream().filter(c -> c.statement().end().toEpochMilli() >= endMs).toList();
        }
    }

    /**
     * A cluster's stored facts as the closer reads them, up to a horizon the implementation fixes (the server's:
     * {@link StoredFactsBelow}). Every method streams: nothing needs to hold all facts.
     */
    public interface StoredFacts extends HeldStatements {

        /**
         * Each transaction after {@code position} that stored facts, in position order, with the span of their event
         * times; {@link PeriodCloser#BEFORE_ANY} for every transaction.
         */
        void forEachTransactionAfter(long position, Consumer<StoredTransaction> sink);

        /**
         * The facts stored at or before {@code position} with event time in {@code [fromMs, untilMs]}, in
         * {@link LedgerFeed#ORDER}.
         */
        void forEachStored(long position, long fromMs, long untilMs, Consumer<LedgerFact> sink);

        /**
         * The newest usable stored ledger state under {@code settings}: with the facts after its latest one stored at
         * or before {@code position}, it holds every fact stored at or before {@code position}, and the statement of
         * every period it has closed that ends at or after {@code fromEndMs}; empty when there is none.
         */
        Optional<StoredLedgerStates.State> newestState(LedgerSettings settings, long position, long fromEndMs);

        /** None held by default ({@link HeldStatements}). */
        @Override
        default Optional<List<Statement>> held(LedgerSettings settings, long firstEnd, long through) {
            return Optional.empty();
        }
    }

    /** The position before every transaction: {@link StoredFacts#forEachTransactionAfter} it reads them all. */
    public static final long BEFORE_ANY = -1L;

    private final String clusterId;
    private final ClosedStatements store;
    private final StoredFacts facts;
    private final RecordedWatermarks recorded;
    private final long idleMs;
    private List<String> idle = List.of();
    private final ClosingReplays replays;

    /** A closer whose sources are never idle, recording its watermarks in memory (tests, benchmarks). */
    public PeriodCloser(String clusterId, ClosedStatements store, StoredFacts facts) {
        this(clusterId, store, facts, RecordedWatermarks.inMemory(), Long.MAX_VALUE);
    }

    /** @param idleMs how long a source may be silent, in arrival time, before it stops holding periods open */
    public PeriodCloser(String clusterId, ClosedStatements store, StoredFacts facts, RecordedWatermarks recorded,
            long idleMs) {
        this.clusterId = clusterId;
        this.store = store;
        this.facts = facts;
        this.replays = new ClosingReplays(clusterId, facts);
        this.recorded = recorded;
        this.idleMs = idleMs;
    }

    /**
     * Closes every period whose end plus the allowed lateness the watermark has passed, each at the first position that
     * passed it.
     *
     * @param settings the settings in force (every period not yet closed is kept under them)
     * @return the periods closed now, in order
     */
    public List<ClosedPeriod> closeDue(LedgerSettings settings) {
        return close(settings, false);
    }

    /**
     * What a configuration change does first: closes what is due ({@link #closeDue}), then every period that has ended
     * by the watermark, at the latest position, under {@code settings} (those in force until the change).
     *
     * @return the start of the open period, from which the change takes effect
     */
    public Instant closeEnded(LedgerSettings settings) {
        close(settings, true);
        return Instant.ofEpochMilli(nextToClose(settings, closedUntil(store.periods())).start());
    }

    /**
     * The position of the first transaction at which {@link #closeDue} would close a period under {@code settings},
     * from the same pass over the transactions, without replaying anything; empty when none is due.
     */
    public OptionalLong firstDue(LedgerSettings settings) {
        List<ClosingSteps.Step> steps = ClosingSteps.of(settings, store.periods(), facts, recorded, idleMs, false)
                .steps();
        return steps.isEmpty() ? OptionalLong.empty() : OptionalLong.of(steps.get(0).position());
    }

    /** Its replays, for what they cost ({@link ClosingReplays#held}, {@link ClosingReplays#replayed}). */
    ClosingReplays replays() {
        return replays;
    }

    /** The sources that were idle at the latest transaction the last close read. */
    public List<String> idleSources() {
        return idle;
    }

    private List<ClosedPeriod> close(LedgerSettings settings, boolean ended) {
        List<ClosedPeriod> closed = new ArrayList<>(store.periods());
        ClosingSteps steps = ClosingSteps.of(settings, closed, facts, recorded, idleMs, ended);
        List<ClosedPeriod> out = new ArrayList<>();
        try {
            for (ClosingSteps.Step step : steps.steps()) {
                out.addAll(closeThrough(step, settings, closed));
                recorded.record(step.position(), step.watermarks());
            }
        } finally {
            replays.forget();
        }
        idle = steps.idle();
        return out;
    }

    /**
     * Closes at the step's position every period not closed yet that ends at or before its {@code through}, from one
     * replay of the facts stored up to it; the first of them carries the adjustments due for earlier closed periods
     * (the others, computed from the same facts, have none left to carry). Adds them to {@code closed}.
     */
    private List<ClosedPeriod> closeThrough(ClosingSteps.Step step, LedgerSettings settings,
            List<ClosedPeriod> closed) {
        Instant closedUntil = closedUntil(closed);
        if (nextToClose(settings, closedUntil).end() > step.through()) {
            return List.of();
        }
        // the adjustments due need the whole statements from the earliest period recomputed on (those carry every
        // adjustment issued for it); the periods alone said which to recompute
        Map<String, StatementView> recomputed = replays.recomputed(closed, step);
        long earliest = recomputed.values().stream().mapToLong(v -> v.end().toEpochMilli()).min().orElse(0);
        Map<String, List<StatementView.Adjustment>> due = recomputed.isEmpty()
                ? Map.of()
                : StatementAdjustments.due(store.closedFrom(earliest).stream().map(ClosedPeriod::statement).toList(),
                        recomputed);
        List<ClosedPeriod> out = new ArrayList<>();
        long firstEnd = nextToClose(settings, closedUntil).end();
        for (Statement s : replays.statements(settings, step.position(), firstEnd, step.through(),
                step.storedAfter())) {
            StatementView view = StatementView.of(s, StatementView.CLOSED, settings.currency());
            if (closedUntil != null && !view.end().isAfter(closedUntil)) {
                continue;
            }
            StatementView closing = StatementAdjustments.carry(view, out.isEmpty() ? due : Map.of());
            ClosedPeriod c = store.store(new ClosedPeriod(closing, settings, step.position()));
            closed.add(c);
            out.add(c);
        }
        return out;
    }

    /** The end of the last closed period, or null when none is closed. */
    public static Instant closedUntil(List<ClosedPeriod> closed) {
        return closed.isEmpty() ? null : closed.get(closed.size() - 1).statement().end();
    }

    /** The earliest period not closed under {@code settings}' schedule. */
    public static Period nextToClose(LedgerSettings settings, List<ClosedPeriod> closed) {
        return nextToClose(settings, closedUntil(closed));
    }

    /** The earliest period under {@code settings}' schedule not closed by {@code closedUntil} (null: none closed). */
    static Period nextToClose(LedgerSettings settings, Instant closedUntil) {
        return settings.schedule().periodOf(
                closedUntil == null ? settings.registeredAt().toEpochMilli() : closedUntil.toEpochMilli());
    }
}
