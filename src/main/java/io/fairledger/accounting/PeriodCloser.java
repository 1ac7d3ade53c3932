package io.fairledger.accounting;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.fairledger.core.chargeback.Period;
import io.fairledger.core.replay.PeriodSchedule;
import io.fairledger.facts.Arrival;
import io.fairledger.facts.LedgerFact;
import io.fairledger.tenancy.LedgerSettings;

/**
 * The one rule that closes a cluster's periods (docs/accounting.md, "Closed periods and late events"), a plain class
 * over the arrivals of facts and a store of closed statements, so the server and the in-memory property test run the
 * same code.
 *
 * <p>
 * <b>When.</b> The watermark is the latest event time among the facts that have arrived. A period closes at the first
 * arrival (in arrival order, {@link Arrival#position()}) that brings the watermark to its end plus the allowed
 * lateness, whether or not anyone reads it; its statement is computed from every fact arrived up to and including that
 * position, under the settings in force, and stored with those settings and the position: it never changes. What
 * decides a closed statement is therefore the sequence of arrivals and of settings changes, never when the books were
 * read or when the server looked. A configuration change first closes what is due, then every period that has ended
 * (its end at or before the watermark), at the latest position, under the settings in force until then
 * ({@link #closeEnded}): the change takes effect from the start of the open period.
 *
 * <p>
 * <b>Late facts.</b> A fact for a closed period changes that period's recomputation under the settings stored with it
 * (not today's); {@link LateAdjustments} turns the difference into adjustment lines carried by the next period to
 * close.
 *
 * <p>
 * <b>Cost.</b> The periods that close at one arrival are stated from one replay of the facts arrived so far, plus one
 * replay per distinct stored settings among the closed periods that received a late fact; each period closes once.
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
    }

    /** How statements are computed from facts: {@link Books#statements}, or from a stored state (retention). */
    @FunctionalInterface
    public interface Statements {

        /** The statements of every period ended by {@code until}, under {@code settings}, from {@code facts}. */
        List<StatementView> of(LedgerSettings settings, List<LedgerFact> facts, Instant until);
    }

    private final ClosedStatements store;
    private final Statements statements;

    /** A closer that computes statements by replaying the facts from the registration ({@link Books#statements}). */
    public PeriodCloser(String clusterId, ClosedStatements store) {
        this(store, (settings, facts, until) -> Books.statements(clusterId, settings, facts, until));
    }

    /** A closer that computes statements with {@code statements}. */
    public PeriodCloser(ClosedStatements store, Statements statements) {
        this.store = store;
        this.statements = statements;
    }

    /**
     * Closes every period whose end plus the allowed lateness the watermark has passed, each at the first arrival that
     * passed it.
     *
     * @param settings the settings in force (every period not yet closed is kept under them)
     * @param arrivals every fact arrived so far, in position order
     * @return the periods closed now, in order
     */
    public List<ClosedPeriod> closeDue(LedgerSettings settings, List<Arrival> arrivals) {
        List<ClosedPeriod> closed = new ArrayList<>(store.closed());
        List<ClosedPeriod> out = new ArrayList<>();
        long lateness = settings.lateness().toMillis();
        PeriodSchedule schedule = schedule(settings);
        long due = nextToClose(settings, closed).end() + lateness;
        long watermark = Long.MIN_VALUE;
        int i = 0;
        while (i < arrivals.size()) {
            long position = arrivals.get(i).position();
            int j = i;
            while (j < arrivals.size() && arrivals.get(j).position() == position) {
                watermark = Math.max(watermark, arrivals.get(j).fact().at());
                j++;
            }
            if (watermark >= due) {
                // every period whose end plus the lateness the watermark has reached: those ending by the start of
                // the period that holds watermark - lateness
                long through = schedule.periodOf(watermark - lateness).start();
                out.addAll(closeThrough(through, settings, arrivals.subList(0, j), position, closed));
                due = nextToClose(settings, closed).end() + lateness;
            }
            i = j;
        }
        return out;
    }

    /**
     * What a configuration change does first: closes what is due ({@link #closeDue}), then every period that has ended
     * by the watermark, at the latest position, under {@code settings} (those in force until the change).
     *
     * @return the start of the open period, from which the change takes effect
     */
    public Instant closeEnded(LedgerSettings settings, List<Arrival> arrivals) {
        List<ClosedPeriod> closed = new ArrayList<>(store.closed());
        closed.addAll(closeDue(settings, arrivals));
        if (!arrivals.isEmpty()) {
            long watermark = arrivals.stream().mapToLong(a -> a.fact().at()).max().orElseThrow();
            closeThrough(schedule(settings).periodOf(watermark).start(), settings, arrivals,
                    arrivals.get(arrivals.size() - 1).position(), closed);
        }
        return Instant.ofEpochMilli(nextToClose(settings, closed).start());
    }

    /**
     * Closes at {@code position} every period not closed yet that ends at or before {@code through}, from one replay
     * of the facts {@code known} then; the first of them carries the adjustments due for earlier closed periods (the
     * others, computed from the same facts, have none left to carry). Adds them to {@code closed}.
     */
    private List<ClosedPeriod> closeThrough(long through, LedgerSettings settings, List<Arrival> known, long position,
            List<ClosedPeriod> closed) {
        Instant closedUntil = closedUntil(closed);
        if (nextToClose(settings, closed).end() > through) {
            return List.of();
        }
        List<LedgerFact> facts = new ArrayList<>(known.size());
        known.forEach(a -> facts.add(a.fact()));
        Map<String, List<StatementView.Adjustment>> due = LateAdjustments.due(
                closed.stream().map(ClosedPeriod::statement).toList(), recomputed(closed, known, facts));
        List<ClosedPeriod> out = new ArrayList<>();
        for (StatementView s : statements.of(settings, facts, Instant.ofEpochMilli(through))) {
            if (closedUntil != null && !s.end().isAfter(closedUntil)) {
                continue;
            }
            StatementView closing = LateAdjustments.carry(s.in(StatementView.CLOSED), out.isEmpty() ? due : Map.of());
            ClosedPeriod c = store.store(new ClosedPeriod(closing, settings, position));
            closed.add(c);
            out.add(c);
        }
        return out;
    }

    private static PeriodSchedule schedule(LedgerSettings settings) {
        return settings.toReplayConfig("schedule", settings.registeredAt()).periods();
    }

    /** The end of the last closed period, or null when none is closed. */
    public static Instant closedUntil(List<ClosedPeriod> closed) {
        return closed.isEmpty() ? null : closed.get(closed.size() - 1).statement().end();
    }

    /** The earliest period not closed under {@code settings}' schedule. */
    public static Period nextToClose(LedgerSettings settings, List<ClosedPeriod> closed) {
        Instant until = closedUntil(closed);
        return schedule(settings)
                .periodOf(until == null ? settings.registeredAt().toEpochMilli() : until.toEpochMilli());
    }

    /** The index of the first arrival after {@code position} ({@code known.size()} when none). */
    private static int firstAfter(List<Arrival> known, long position) {
        int lo = 0;
        int hi = known.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (known.get(mid).position() <= position) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * The closed periods that received a late fact (one arrived after the period closed, for an instant before its
     * end), recomputed from {@code facts} under the settings stored with each, by period id.
     */
    private Map<String, StatementView> recomputed(List<ClosedPeriod> closed, List<Arrival> known,
            List<LedgerFact> facts) {
        long[] earliestAfter = new long[known.size() + 1];
        earliestAfter[known.size()] = Long.MAX_VALUE;
        for (int k = known.size() - 1; k >= 0; k--) {
            earliestAfter[k] = Math.min(earliestAfter[k + 1], known.get(k).fact().at());
        }
        Map<LedgerSettings, Instant> untilBySettings = new LinkedHashMap<>();
        for (ClosedPeriod c : closed) {
            if (earliestAfter[firstAfter(known, c.position())] < c.statement().end().toEpochMilli()) {
                untilBySettings.merge(c.settings(), c.statement().end(), (a, b) -> a.isAfter(b) ? a : b);
            }
        }
        Map<String, LedgerSettings> keptUnder = new HashMap<>();
        closed.forEach(c -> keptUnder.put(c.statement().period(), c.settings()));
        Map<String, StatementView> out = new LinkedHashMap<>();
        untilBySettings.forEach((settings, until) -> {
            for (StatementView s : statements.of(settings, facts, until)) {
                if (settings.equals(keptUnder.get(s.period()))) {
                    out.put(s.period(), s);
                }
            }
        });
        return out;
    }
}
