package io.fairledger.core.replay;

import java.util.List;
import java.util.Map;

import io.fairledger.core.chargeback.Period;

/**
 * A schedule that changed: each piece's schedule cuts the periods from the piece's start to the next piece's start. A
 * period of one piece that holds the next piece's start ends there, short (the bridging period, prorated like a
 * short first period: {@link Schedule#proration}); the next piece's first period starts there. So the periods of the
 * earlier pieces, closed ones among them, are exactly what they were before the later pieces were added, and the
 * pieces together still tile time.
 *
 * <p>
 * Ids: a piece whose periods are named like those of an earlier piece (both fixed lengths, or both calendar months,
 * weeks, days or hours) adds {@code ~n} to its ids, {@code n} its place (the first piece is 0), so every id is unique.
 *
 * @param pieces
 *            in order of their starts, at least one; the first covers everything before the second's start
 */
public record PiecewiseSchedule(List<Piece> pieces) implements Schedule {

    /**
     * One schedule from {@code fromMs} on (the first piece's {@code fromMs} is where its schedule starts, the
     * registration).
     */
    public record Piece(Schedule schedule, long fromMs) {
        public Piece {
            if (schedule instanceof PiecewiseSchedule) {
                throw new IllegalArgumentException("a piece is a fixed or a calendar schedule");
            }
        }
    }

    public PiecewiseSchedule {
        pieces = List.copyOf(pieces);
        if (pieces.isEmpty()) {
            throw new IllegalArgumentException("a schedule has at least one piece");
        }
        for (int i = 1; i < pieces.size(); i++) {
            if (pieces.get(i).fromMs() <= pieces.get(i - 1).fromMs()) {
                throw new IllegalArgumentException("each schedule must start after the one before it: "
                        + pieces.get(i).fromMs() + " is not after " + pieces.get(i - 1).fromMs());
            }
        }
    }

    /**
     * The schedule as it was before the pieces starting after {@code t} were added: the pieces started by {@code t}, or
     * the first piece's schedule alone when only it had.
     */
    public Schedule upTo(long t) {
        int i = pieceAt(t);
        return i == 0 ? pieces.get(0).schedule() : new PiecewiseSchedule(pieces.subList(0, i + 1));
    }

    @Override
    public Period periodOf(long t) {
        int i = pieceAt(t);
        Period p = pieces.get(i).schedule().periodOf(t);
        long start = i > 0 ? Math.max(p.start(), pieces.get(i).fromMs()) : p.start();
        long end = i + 1 < pieces.size() ? Math.min(p.end(), pieces.get(i + 1).fromMs()) : p.end();
        return new Period(p.id() + suffix(i), start, end);
    }

    @Override
    public Period wholeOf(long t) {
        return pieces.get(pieceAt(t)).schedule().wholeOf(t);
    }

    /** The nominal length of the last piece's periods: the schedule in force. */
    @Override
    public long nominalMs() {
        return pieces.get(pieces.size() - 1).schedule().nominalMs();
    }

    private int pieceAt(long t) {
        int i = pieces.size() - 1;
        while (i > 0 && pieces.get(i).fromMs() > t) {
            i--;
        }
        return i;
    }

    /** {@code ~i} when an earlier piece names its periods alike, else nothing. */
    private String suffix(int i) {
        String kind = kind(pieces.get(i).schedule());
        for (int j = 0; j < i; j++) {
            if (kind(pieces.get(j).schedule()).equals(kind)) {
                return "~" + i;
            }
        }
        return "";
    }

    private static final Map<String, String> CALENDAR_KINDS = Map.of("P1M", "months", "P1W", "weeks", "P1D", "days");

    /** How the periods of {@code schedule} are named: schedules of one kind may give the same id. */
    private static String kind(Schedule schedule) {
        if (schedule instanceof CalendarSchedule c) {
            return CALENDAR_KINDS.getOrDefault(c.length(), "hours");
        }
        return "fixed " + ((PeriodSchedule) schedule).prefix();
    }
}
