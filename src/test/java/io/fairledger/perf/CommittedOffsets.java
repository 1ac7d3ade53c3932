package io.fairledger.perf;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

import io.fairledger.testsupport.RealDependency;

/**
 * The server's consumer offsets as committed in PostgreSQL (table {@code consumer_offset}, with the facts of each
 * batch): the point where an event has become part of the ledger.
 */
public final class CommittedOffsets {

    private CommittedOffsets() {
    }

    /** How long the offsets may stand still before the wait gives up (a server whose consumer stopped). */
    private static final java.time.Duration STALL = java.time.Duration.ofMinutes(5);

    /**
     * Waits until the committed offsets of {@code topic} (summed over its partitions) reach {@code total} and returns the
     * events per second between the first commit beyond {@code from} and that one; fails when they do not move for
     * {@link #STALL}.
     */
    public static double awaitRate(RealDependency.Running postgres, String topic, long from, long total)
            throws Exception {
        try (Connection db = connect(postgres); Statement st = db.createStatement()) {
            long firstAt = 0;
            long firstOffset = 0;
            long lastOffset = -1;
            long movedAt = System.nanoTime();
            while (true) {
                long offset;
                try (ResultSet rs = st.executeQuery(
                        "SELECT coalesce(sum(next_offset), 0) FROM consumer_offset WHERE topic = '" + topic + "'")) {
                    rs.next();
                    offset = rs.getLong(1);
                }
                long now = System.nanoTime();
                if (firstAt == 0 && offset > from) {
                    firstAt = now;
                    firstOffset = offset;
                }
                if (offset >= total) {
                    return (offset - firstOffset) / ((now - firstAt) / 1e9);
                }
                if (offset != lastOffset) {
                    lastOffset = offset;
                    movedAt = now;
                } else if (now - movedAt > STALL.toNanos()) {
                    throw new IllegalStateException("the server committed nothing for " + STALL + " at offset "
                            + offset + " of " + total + " (" + topic + "): see its log");
                }
                Thread.sleep(20);
            }
        }
    }

    /** A connection to the benchmark's database, as the server's own settings name it. */
    public static Connection connect(RealDependency.Running postgres) throws java.sql.SQLException {
        return DriverManager.getConnection(postgres.config().get("quarkus.datasource.jdbc.url"),
                postgres.config().get("quarkus.datasource.username"),
                postgres.config().get("quarkus.datasource.password"));
    }
}
