package io.fairledger.accounting;

import static io.fairledger.accounting.PeriodCloser.BEFORE_ANY;
import static io.fairledger.accounting.PeriodCloser.closedUntil;
import static io.fairledger.accounting.PeriodCloser.nextToClose;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

import io.fairledger.accounting.PeriodCloser.ClosedPeriod;
import io.fairledger.core.replay.Schedule;
import io.fairledger.facts.StoredTransaction;
import io.fairledger.tenancy.LedgerSettings;

/**
 * Where {@link PeriodCloser} closes periods and which closed periods may have received a late fact by then, from one
 * pass over the stored transactions in position order ({@link #of}), by the closing watermark of the cluster's sources
 * ({@link SourceWatermarks}).
 */
final class ClosingSteps implements Consumer<StoredTransaction> {

    /**
     * Periods to close at {@code position}: those not closed yet ending at or before {@code through}.
     *
     * @param lateSince by the position of closed periods that may have received a late fact: the earliest event time
     *                  among the facts stored after that position up to {@code position}
     * @param watermarks the source watermarks at {@code position}, recorded with the periods closed there
     * @param storedAfter the earliest event time among the facts stored after {@code position} (up to the horizon the
     *                    facts are read to), {@link Long#MAX_VALUE} when none is: a ledger holding every fact stored
     *                    states the periods ending before it as the facts stored up to {@code position} do
     */
    record Step(long position, long through, Map<Long, Long> lateSince, SourceWatermarks watermarks,
            long storedAfter) {
    }

    /**
     * Where periods close, from one pass over the transactions: at each position that brings the closing watermark
     * ({@link SourceWatermarks}) past the next period's end plus the lateness (then, with {@code ended}, at the last
     * position every period ended by the latest event time). The pass starts after the latest position a period was
     * closed at, with the source watermarks recorded there ({@link RecordedWatermarks}), so it reads only
     * the transactions stored since; from the first transaction when nothing is closed yet, when nothing was recorded
     * there (periods closed before watermarks were recorded) or under another idle timeout, or when the closing
     * watermark there is at or past the next due instant already (a settings change moved the schedule or shortened
     * the lateness: the rule then closes at the first position that passed it). For each, which closed periods may
     * have received a late fact by then: the earliest event time stored after each closing position is kept per range
     * between two closing positions, so a look costs one entry per closing position.
     */
    static ClosingSteps of(LedgerSettings settings, List<ClosedPeriod> closed, PeriodCloser.StoredFacts facts,
            RecordedWatermarks recorded, long idleMs, boolean ended) {
        ClosingSteps steps = new ClosingSteps(settings, closed, idleMs);
        if (!closed.isEmpty()) {
            long last = closed.stream().mapToLong(ClosedPeriod::position).max().orElseThrow();
            recorded.at(last).filter(w -> w.idleMs() == idleMs && w.closing() < steps.due)
                    .ifPresent(w -> steps.resumeAfter(last, w));
        }
        facts.forEachTransactionAfter(steps.after, steps);
        if (ended) {
            steps.closeEnded();
        }
        return steps;
    }

    private final LedgerSettings settings;
    private final long lateness;
    private final Schedule schedule;
    /**
     * By closing position: {latest end of the periods closed there, earliest event time stored after it and up to
     * the next closing position}.
     */
    private final TreeMap<Long, long[]> closings = new TreeMap<>();
    private final List<Step> steps = new ArrayList<>();
    /** For each step found, the earliest event time stored after its position so far ({@link Step#storedAfter}). */
    private long[] storedAfter = new long[0];
    private Instant closedUntil;
    private long due;
    private SourceWatermarks watermarks;
    private Long last;
    /**
     * The position after which the transactions are taken: {@link PeriodCloser#BEFORE_ANY} unless
     * {@link #resumeAfter}.
     */
    private long after = BEFORE_ANY;

    private ClosingSteps(LedgerSettings settings, List<ClosedPeriod> closed, long idleMs) {
        this.settings = settings;
        this.watermarks = new SourceWatermarks(idleMs);
        this.lateness = settings.lateness().toMillis();
        this.schedule = settings.schedule();
        for (ClosedPeriod c : closed) {
            closings.merge(c.position(), new long[]{c.statement().end().toEpochMilli(), Long.MAX_VALUE},
                    (x, y) -> new long[]{Math.max(x[0], y[0]), Long.MAX_VALUE});
        }
        closedUntil = closedUntil(closed);
        due = nextToClose(settings, closedUntil).end() + lateness;
    }

    /**
     * Starts after {@code position}, the latest position a period was closed at, with the source watermarks there,
     * whose closing watermark is below the next due instant. The pass from the first transaction finds the same steps:
     * it reaches that position with the same source watermarks (they are read from the transactions alone); up to it
     * it closes nothing more (the closing watermark never goes back, and it is below the next due instant there); and
     * the late facts stored up to it were found by the step at that position, which recomputed their periods from
     * every fact stored up to it and issued the differences, so that for every closed period its statement plus the
     * adjustments issued for it is what the facts stored up to that position say. Only a fact stored after it, for an
     * instant before a closed period's end, can call for an adjustment: the closing positions start with no earliest
     * event time after them, and the first step after such a fact finds it (later steps of the same pass recompute its
     * period again and find nothing left to issue, as the pass from the first transaction does for every late fact
     * ever stored).
     */
    private void resumeAfter(long position, SourceWatermarks recorded) {
        this.after = position;
        this.last = position;
        this.watermarks = recorded.copy();
    }

    /** Takes the next transaction in position order. */
    @Override
    public void accept(StoredTransaction t) {
        long earliest = t.earliest();
        Map.Entry<Long, long[]> before = closings.lowerEntry(t.position());
        if (before != null) {
            before.getValue()[1] = Math.min(before.getValue()[1], earliest);
        }
        for (int i = 0; i < steps.size(); i++) {
            storedAfter[i] = Math.min(storedAfter[i], earliest);
        }
        watermarks.accept(t);
        last = t.position();
        long watermark = watermarks.closing();
        if (watermark >= due) {
            // every period whose end plus the lateness the watermark has reached: those ending by the start of
            // the period that holds watermark - lateness
            closeAt(t.position(), schedule.periodOf(watermark - lateness).start());
        }
    }

    /** At the last position, every period ended by the latest event time. */
    private void closeEnded() {
        if (last == null) {
            return;
        }
        long through = schedule.periodOf(watermarks.latest()).start();
        if (nextToClose(settings, closedUntil).end() <= through) {
            closeAt(last, through);
        }
    }

    private void closeAt(long position, long through) {
        steps.add(new Step(position, through, lateSince(), watermarks.copy(), Long.MAX_VALUE));
        storedAfter = Arrays.copyOf(storedAfter, steps.size());
        storedAfter[steps.size() - 1] = Long.MAX_VALUE;
        closings.merge(position, new long[]{through, Long.MAX_VALUE},
                (x, y) -> new long[]{Math.max(x[0], y[0]), x[1]});
        closedUntil = Instant.ofEpochMilli(through);
        due = nextToClose(settings, closedUntil).end() + lateness;
    }

    /** The steps found, in position order, each with the earliest event time stored after it. */
    List<Step> steps() {
        List<Step> out = new ArrayList<>(steps.size());
        for (int i = 0; i < steps.size(); i++) {
            Step s = steps.get(i);
            out.add(new Step(s.position(), s.through(), s.lateSince(), s.watermarks(), storedAfter[i]));
        }
        return out;
    }

    /** The sources idle at the last transaction read. */
    List<String> idle() {
        return watermarks.idle();
    }

    /**
     * The earliest event time stored after each closing position, where it is before the end of a period closed
     * there.
     */
    private Map<Long, Long> lateSince() {
        Map<Long, Long> out = new HashMap<>();
        long earliest = Long.MAX_VALUE;
        for (Map.Entry<Long, long[]> e : closings.descendingMap().entrySet()) {
            earliest = Math.min(earliest, e.getValue()[1]);
            if (earliest < e.getValue()[0]) {
                out.put(e.getKey(), earliest);
            }
        }
        return out;
    }
}
