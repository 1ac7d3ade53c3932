package io.fairledger.facts;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import io.quarkus.runtime.StartupEvent;
import org.jboss.logging.Logger;

/**
 * Keeps the stored fact positions behind the database's transaction ids after a logical restore. Facts, checkpoints
 * and closed statements are positioned by the PostgreSQL transaction ids that stored them ({@link FactCursor});
 * {@code pg_dump} keeps those numbers as data but a restored database counts its own transactions from where it
 * stands, usually far lower, so new facts would sort before ones already applied and be missed. At start, before
 * anything reads or writes facts, this finds the highest stored position and, when the database's next transaction id
 * is not past it, spends empty transactions until it is, and says so. A gap too large to spend
 * ({@value #MAX_GAP} transactions) stops the start with the {@code pg_resetwal -x} to run instead (docs/operations.md,
 * "Backup and restore"). A physical restore (base backup and WAL) keeps the transaction ids and needs nothing.
 */
@ApplicationScoped
public class TransactionIdFloor {

    /** The most transactions spent at start: about a minute of PostgreSQL's time. */
    static final long MAX_GAP = 10_000_000;
    private static final long CHUNK = 100_000;
    private static final Logger LOG = Logger.getLogger(TransactionIdFloor.class);
    private static final String HIGHEST_STORED = "SELECT greatest("
            + "(SELECT tx::text::bigint FROM ledger_fact ORDER BY tx DESC LIMIT 1), "
            + "(SELECT fact_horizon::text::bigint FROM ledger_checkpoint ORDER BY fact_horizon DESC LIMIT 1), "
            + "(SELECT max(fact_position) FROM closed_statement), "
            + "(SELECT max(fact_position) FROM closing_watermark))";

    @Inject
    DataSource dataSource;

    /** Before the other start observers (default priority 2500): they read facts from their positions. */
    void raise(@Observes @Priority(1) StartupEvent start) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            c.setAutoCommit(true);
            long stored = single(st, HIGHEST_STORED);
            long next = single(st, "SELECT pg_current_xact_id()::text::bigint");
            if (stored == 0 || next > stored) {
                return;
            }
            long gap = stored - next + 1;
            if (gap > MAX_GAP) {
                throw new IllegalStateException(("the stored fact positions reach transaction id %d but this "
                        + "database is at %d, as after a restore of a pg_dump: stop PostgreSQL and run `pg_resetwal "
                        + "-x %d -e %d` on its data directory, then start fairledger again (docs/operations.md, "
                        + "\"Backup and restore\")").formatted(stored, next, (stored + 1) & 0xFFFFFFFFL,
                                (stored + 1) >>> 32));
            }
            LOG.warnf("the stored fact positions reach transaction id %d but this database is at %d, as after a "
                    + "restore of a pg_dump: spending %d empty transactions so that new facts sort after the stored "
                    + "ones", stored, next, gap);
            for (long left = gap; left > 0; left -= CHUNK) {
                st.execute("DO $$ BEGIN FOR i IN 1.." + Math.min(left, CHUNK)
                        + " LOOP PERFORM pg_current_xact_id(); COMMIT; END LOOP; END $$");
            }
            LOG.infof("transaction ids now past the stored fact positions (at %d)",
                    single(st, "SELECT pg_current_xact_id()::text::bigint"));
        }
    }

    /** The one number {@code sql} answers; 0 for NULL. */
    private static long single(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
