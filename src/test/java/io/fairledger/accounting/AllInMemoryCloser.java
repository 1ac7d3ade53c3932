package io.fairledger.accounting;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.fairledger.accounting.InMemoryStoredFacts.Arrival;
import io.fairledger.accounting.PeriodCloser.ClosedPeriod;
import io.fairledger.core.replay.Schedule;
import io.fairledger.facts.LedgerFact;
import io.fairledger.tenancy.LedgerSettings;

/**
 * The closing rule computed the plain way, as the server did before it streamed: every arrival in memory, every
 * statement from {@link Books#statements} of every fact known at the closing position, every closed period that
 * received a late fact recomputed the same way. A reference for {@link PeriodCloserProperties}, which checks that the
 * streamed {@link PeriodCloser} closes the same statements; not used by the server.
 */
public final class AllInMemoryCloser {

    private final String clusterId;
    private final PeriodCloser.ClosedStatements store;
    private final long idleMs;

    /** Sources are never idle. */
    public AllInMemoryCloser(String clusterId, PeriodCloser.ClosedStatements store) {
        this(clusterId, store, Long.MAX_VALUE);
    }

    /** @param idleMs how long a source may deliver nothing, in arrival time, and still hold periods open */
    AllInMemoryCloser(String clusterId, PeriodCloser.ClosedStatements store, long idleMs) {
        this.clusterId = clusterId;
        this.store = store;
        this.idleMs = idleMs;
    }

    public List<ClosedPeriod> closeDue(LedgerSettings settings, List<Arrival> arrivals) {
        List<ClosedPeriod> closed = new ArrayList<>(store.closed());
        List<ClosedPeriod> out = new ArrayList<>();
        long lateness = settings.lateness().toMillis();
        Schedule schedule = schedule(settings);
        long due = PeriodCloser.nextToClose(settings, closed).end() + lateness;
        long watermark = Long.MIN_VALUE;
        int i = 0;
        while (i < arrivals.size()) {
            long position = arrivals.get(i).position();
            int j = i;
            while (j < arrivals.size() && arrivals.get(j).position() == position) {
                j++;
            }
            // the closing watermark never goes back
            watermark = Math.max(watermark, lowestActive(arrivals.subList(0, j)));
            if (watermark >= due) {
                long through = schedule.periodOf(watermark - lateness).start();
                out.addAll(closeThrough(through, settings, arrivals.subList(0, j), position, closed));
                due = PeriodCloser.nextToClose(settings, closed).end() + lateness;
            }
            i = j;
        }
        return out;
    }

    Instant closeEnded(LedgerSettings settings, List<Arrival> arrivals) {
        List<ClosedPeriod> closed = new ArrayList<>(store.closed());
        closed.addAll(closeDue(settings, arrivals));
        if (!arrivals.isEmpty()) {
            long watermark = arrivals.stream().mapToLong(a -> a.fact().at()).max().orElseThrow();
            closeThrough(schedule(settings).periodOf(watermark).start(), settings, arrivals,
                    arrivals.get(arrivals.size() - 1).position(), closed);
        }
        return Instant.ofEpochMilli(PeriodCloser.nextToClose(settings, closed).start());
    }

    private List<ClosedPeriod> closeThrough(long through, LedgerSettings settings, List<Arrival> known, long position,
            List<ClosedPeriod> closed) {
        Instant closedUntil = PeriodCloser.closedUntil(closed);
        if (PeriodCloser.nextToClose(settings, closed).end() > through) {
            return List.of();
        }
        List<LedgerFact> facts = new ArrayList<>(known.size());
        known.forEach(a -> facts.add(a.fact()));
        Map<String, List<StatementView.Adjustment>> due = StatementAdjustments.due(
                closed.stream().map(ClosedPeriod::statement).toList(), recomputed(closed, known, facts));
        List<ClosedPeriod> out = new ArrayList<>();
        for (StatementView s : Books.statements(clusterId, settings, facts, Instant.ofEpochMilli(through))) {
            if (closedUntil != null && !s.end().isAfter(closedUntil)) {
                continue;
            }
            StatementView closing = StatementAdjustments.carry(s.in(StatementView.CLOSED),
                    out.isEmpty() ? due : Map.of());
            ClosedPeriod c = store.store(new ClosedPeriod(closing, settings, position));
            closed.add(c);
            out.add(c);
        }
        return out;
    }

    /**
     * After the last of {@code known}: the lowest latest event time among the usage sources (else among all sources)
     * that delivered within the idle timeout of the latest arrival (the arrival clock), counted from every arrival.
     */
    private long lowestActive(List<Arrival> known) {
        Map<String, Long> latest = new HashMap<>();
        Map<String, Long> lastArrival = new HashMap<>();
        long clock = Long.MIN_VALUE;
        for (Arrival a : known) {
            clock = Math.max(clock, a.arrivedAt());
            lastArrival.put(a.source(), clock);
            latest.merge(a.source(), a.fact().at(), Math::max);
        }
        long usage = Long.MAX_VALUE;
        long any = Long.MAX_VALUE;
        for (Map.Entry<String, Long> source : latest.entrySet()) {
            if (clock - lastArrival.get(source.getKey()) <= idleMs) {
                any = Math.min(any, source.getValue());
                if (SourceWatermarks.reportsUsage(source.getKey())) {
                    usage = Math.min(usage, source.getValue());
                }
            }
        }
        // the usage sources (containers, tasks) hold periods; the others only while none of those delivers
        return usage != Long.MAX_VALUE ? usage : any;
    }

    private static Schedule schedule(LedgerSettings settings) {
        return settings.toReplayConfig("schedule", settings.registeredAt()).periods();
    }

    private Map<String, StatementView> recomputed(List<ClosedPeriod> closed, List<Arrival> known,
            List<LedgerFact> facts) {
        Map<LedgerSettings, Instant> untilBySettings = new LinkedHashMap<>();
        for (ClosedPeriod c : closed) {
            boolean late = known.stream().anyMatch(a -> a.position() > c.position()
                    && a.fact().at() < c.statement().end().toEpochMilli());
            if (late) {
                untilBySettings.merge(c.settings(), c.statement().end(), (a, b) -> a.isAfter(b) ? a : b);
            }
        }
        Map<String, LedgerSettings> keptUnder = new HashMap<>();
        closed.forEach(c -> keptUnder.put(c.statement().period(), c.settings()));
        Map<String, StatementView> out = new LinkedHashMap<>();
        untilBySettings.forEach((settings, until) -> {
            for (StatementView s : Books.statements(clusterId, settings, facts, until)) {
                if (settings.equals(keptUnder.get(s.period()))) {
                    out.put(s.period(), s);
                }
            }
        });
        return out;
    }
}
