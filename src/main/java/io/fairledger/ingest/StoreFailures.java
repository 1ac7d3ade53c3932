package io.fairledger.ingest;

import java.sql.SQLException;

/**
 * What a failure to store records says, from the SQLSTATE of the first {@link SQLException} among its causes
 * (PostgreSQL's error codes, appendix A of its manual):
 * <ul>
 * <li>{@link Kind#DATA}: the database refuses the data (classes 22 data exception, 23 integrity constraint, 54
 * program limit): some record will fail every time, so it is found and dead-lettered at once;</li>
 * <li>{@link Kind#UNAVAILABLE}: the database cannot be used now (08 connection, 53 insufficient resources, 57 operator
 * intervention such as a shutdown, 40 rollback such as a deadlock, or no SQLSTATE at all: the pool found no
 * connection): nothing is wrong with the records, which are read again however long it lasts;</li>
 * <li>{@link Kind#UNKNOWN}: anything else (another SQLSTATE, an exception without SQL cause): read again, but only a
 * few times ({@link #TRIES}), then the records that fail alone are dead-lettered, so no batch is retried forever.</li>
 * </ul>
 */
final class StoreFailures {

    /** Tries of a batch that fails for an {@link Kind#UNKNOWN} reason before its lone failing records go. */
    static final int TRIES = 3;

    enum Kind {
        DATA, UNAVAILABLE, UNKNOWN
    }

    private StoreFailures() {
    }

    static Kind of(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql) {
                return ofState(sql.getSQLState());
            }
        }
        return Kind.UNKNOWN;
    }

    private static Kind ofState(String state) {
        if (state == null || state.length() < 2) {
            return Kind.UNAVAILABLE;
        }
        return switch (state.substring(0, 2)) {
            case "22", "23", "54" -> Kind.DATA;
            case "08", "53", "57", "40" -> Kind.UNAVAILABLE;
            default -> Kind.UNKNOWN;
        };
    }

    /** The failure in a dead letter's words: {@code SQLSTATE 22021: invalid byte sequence ...}, one line. */
    static String describe(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql) {
                return "SQLSTATE " + sql.getSQLState() + ": " + firstLine(sql.getMessage());
            }
        }
        return failure.getClass().getSimpleName() + ": " + firstLine(failure.getMessage());
    }

    private static String firstLine(String message) {
        return String.valueOf(message).lines().findFirst().orElse("");
    }
}
