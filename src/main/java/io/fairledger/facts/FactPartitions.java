package io.fairledger.facts;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The month partitions of {@code ledger_fact} (V60): one per calendar month of event time (UTC), named
 * {@code ledger_fact_YYYY_MM}, plus {@code ledger_fact_default} for every fact no month covers. Plain JDBC on the
 * caller's connection and transaction; the caller serialises maintenance across replicas (retention's advisory lock).
 */
public final class FactPartitions {

    /** The partition that takes what no month partition covers; never dropped. */
    public static final String DEFAULT = "ledger_fact_default";
    /** Months of facts in the default partition before this one are left there (1970-01 on). */
    private static final YearMonth FIRST_MONTH = YearMonth.of(1970, 1);
    private static final Pattern BOUNDS = Pattern.compile("FROM \\('?(-?\\d+)'?\\) TO \\('?(-?\\d+)'?\\)");

    /**
     * A month partition.
     *
     * @param name   its table
     * @param fromMs its first event time
     * @param toMs   the first event time after it
     */
    public record Partition(String name, long fromMs, long toMs) {
    }

    private FactPartitions() {
    }

    /** Every month partition, oldest first (the default partition is not one). */
    public static List<Partition> months(Connection c) throws SQLException {
        List<Partition> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT p.relname, pg_get_expr(p.relpartbound, p.oid) "
                + "FROM pg_inherits i JOIN pg_class p ON p.oid = i.inhrelid "
                + "WHERE i.inhparent = 'ledger_fact'::regclass");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                Matcher m = BOUNDS.matcher(rs.getString(2));
                if (m.find()) {
                    out.add(new Partition(rs.getString(1), Long.parseLong(m.group(1)), Long.parseLong(m.group(2))));
                }
            }
        }
        out.sort((a, b) -> Long.compare(a.fromMs(), b.fromMs()));
        return out;
    }

    /**
     * Makes sure the months from the one holding {@code now} to {@code monthsAhead} after it have their partitions, and
     * that every fact of the default partition in a month from 1970 to the last of those is moved into its month's
     * partition (created for it); returns the partitions created.
     */
    public static List<Partition> ensure(Connection c, Instant now, int monthsAhead) throws SQLException {
        YearMonth current = YearMonth.from(now.atOffset(ZoneOffset.UTC));
        YearMonth last = current.plusMonths(monthsAhead);
        TreeSet<YearMonth> wanted = new TreeSet<>();
        for (YearMonth m = current; !m.isAfter(last); m = m.plusMonths(1)) {
            wanted.add(m);
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT DISTINCT to_char(to_timestamp(event_time_ms / 1000.0) "
                + "AT TIME ZONE 'UTC', 'YYYY-MM') FROM " + DEFAULT
                + " WHERE event_time_ms >= ? AND event_time_ms < ?")) {
            ps.setLong(1, start(FIRST_MONTH));
            ps.setLong(2, start(last.plusMonths(1)));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    wanted.add(YearMonth.parse(rs.getString(1)));
                }
            }
        }
        List<Partition> existing = months(c);
        List<Partition> created = new ArrayList<>();
        for (YearMonth m : wanted) {
            long from = start(m);
            if (existing.stream().noneMatch(p -> p.fromMs() < start(m.plusMonths(1)) && p.toMs() > from)) {
                created.add(create(c, m));
            }
        }
        return created;
    }

    /**
     * Creates the partition of month {@code m}, moving its facts out of the default partition first (a partition cannot
     * be attached while the default one holds rows of its range).
     * <p>
     * The move is not MVCC-safe by itself: a query whose snapshot was taken before it commits and which plans or prunes
     * the partitions after it sees the month's rows neither in the default partition (pruned: the month is now covered)
     * nor in the new one (inserted by a transaction its snapshot does not see), so it reads none of them. A period
     * close reading the month then closed a statement of zeros. So the whole table, every partition with it, is
     * locked first (which also keeps inserts out of the default partition): readers and writers wait for the move, then
     * take a snapshot that sees it. The wait for the lock is bounded (five seconds, then this throws and the retention
     * pass is tried again later) so that a long reader does not queue every other one behind it.
     */
    private static Partition create(Connection c, YearMonth m) throws SQLException {
        Partition p = new Partition(String.format("ledger_fact_%04d_%02d", m.getYear(), m.getMonthValue()), start(m),
                start(m.plusMonths(1)));
        try (Statement st = c.createStatement()) {
            st.execute("SET LOCAL lock_timeout = '5s'");
            st.execute("LOCK TABLE ledger_fact IN ACCESS EXCLUSIVE MODE");
            st.execute("CREATE TABLE " + p.name() + " (LIKE ledger_fact INCLUDING DEFAULTS)");
            st.execute("WITH moved AS (DELETE FROM " + DEFAULT + " WHERE event_time_ms >= " + p.fromMs()
                    + " AND event_time_ms < " + p.toMs() + " RETURNING *) INSERT INTO " + p.name()
                    + " SELECT * FROM moved");
            st.execute("ALTER TABLE ledger_fact ATTACH PARTITION " + p.name() + " FOR VALUES FROM (" + p.fromMs()
                    + ") TO (" + p.toMs() + ")");
        }
        return p;
    }

    /** The clusters that have facts in {@code p} (a loose index scan: one probe per cluster). */
    public static List<String> clustersIn(Connection c, Partition p) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("WITH RECURSIVE ids AS (SELECT min(cluster_id) AS id FROM " + p.name()
                        + " UNION ALL SELECT (SELECT min(cluster_id) FROM " + p.name() + " WHERE cluster_id > ids.id) "
                        + "FROM ids WHERE ids.id IS NOT NULL) SELECT id FROM ids WHERE id IS NOT NULL")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    /** The facts in {@code p}. */
    public static long rows(Connection c, Partition p) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM " + p.name())) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Detaches and drops {@code p}, waiting at most five seconds for the table lock (else throws, to retry later). */
    public static void drop(Connection c, Partition p) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("SET LOCAL lock_timeout = '5s'");
            st.execute("ALTER TABLE ledger_fact DETACH PARTITION " + p.name());
            st.execute("DROP TABLE " + p.name());
        }
    }

    /**
     * Deletes the keys of the facts of a dropped partition's range from {@code ledger_fact_key} (a scan of the key
     * table: done after the drop, in its own transaction, so ingestion does not wait on it). Returns the keys deleted.
     */
    public static int forgetKeys(Connection c, Partition p) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "DELETE FROM ledger_fact_key WHERE event_time_ms >= ? AND event_time_ms < ?")) {
            ps.setLong(1, p.fromMs());
            ps.setLong(2, p.toMs());
            return ps.executeUpdate();
        }
    }

    private static long start(YearMonth m) {
        return m.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC).toEpochMilli();
    }
}
