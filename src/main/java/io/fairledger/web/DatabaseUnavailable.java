package io.fairledger.web;

import java.sql.SQLException;
import java.util.Set;

import io.fairledger.errors.NotReady;

/**
 * Whether a failure is PostgreSQL being unavailable (down, unreachable, restarting, out of connections) rather than a
 * fault of the request or of fairledger: such a request is answered 503 with {@code Retry-After}, not 500. Told by
 * the SQLSTATE of an {@link SQLException} anywhere in the cause chain: class 08 (connection exception), 57P01 to 57P03
 * (shut down, crashed, cannot connect now), 53300 (too many connections); and by the pool's timeout when no connection
 * could be had.
 */
final class DatabaseUnavailable {

    private static final Set<String> STATES = Set.of("57P01", "57P02", "57P03", "53300");

    private DatabaseUnavailable() {
    }

    static boolean causes(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql) {
                String state = sql.getSQLState();
                if (state != null && (state.startsWith("08") || STATES.contains(state))) {
                    return true;
                }
                // Agroal's "Acquisition timeout while waiting for new connection" carries no SQLSTATE
                if (state == null && String.valueOf(sql.getMessage()).startsWith("Acquisition timeout")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The answer: no address, no driver message, only what the caller can do. */
    static NotReady notReady() {
        return new NotReady("The database is unavailable; the request was not carried out. Retry later.");
    }
}
