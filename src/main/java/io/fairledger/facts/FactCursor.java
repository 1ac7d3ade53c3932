package io.fairledger.facts;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import javax.sql.DataSource;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The one reader of {@code ledger_fact}, for statements, what-ifs and the live ledgers. Facts are streamed through a
 * server-side cursor ({@value #FETCH_SIZE} rows per fetch, inside a transaction), decoded one row at a time, so a
 * caller that consumes them as they come ({@link #forEach}) never holds the table in memory.
 * <p>
 * The live ledgers also read by ranges of the transaction ids that stored the facts (V4 migration). Every fact of a
 * transaction older than the <em>horizon</em>, the oldest transaction still running, is final: reading
 * {@code [from, horizon)} and then {@code [horizon, next horizon)} misses no fact and reads none twice, whichever server
 * committed it and in whatever order the transactions finished.
 */
@ApplicationScoped
public class FactCursor {

    /** What a fact is stored as ({@link FactCodec#decode}). */
    private static final String COLUMNS = "SELECT cluster_id, kind, event_time_ms, dedupe_key, fact FROM ledger_fact ";
    /** Rows per round trip of the server-side cursor. */
    private static final int FETCH_SIZE = 10_000;

    /** The horizon before any fact. */
    public static final String START = "0";

    @Inject
    DataSource dataSource;

    /** Every fact of {@code clusterId}, in event-time order (then dedupe key), handed to {@code sink} as read. */
    public void forEach(String clusterId, Consumer<LedgerFact> sink) throws SQLException {
        read(COLUMNS + "WHERE cluster_id = ? ORDER BY event_time_ms, dedupe_key", List.of(clusterId), clusterId,
                (cluster, fact) -> sink.accept(fact));
    }

    /** Every fact of {@code clusterId}, in event-time order (then dedupe key). */
    public List<LedgerFact> facts(String clusterId) throws SQLException {
        List<LedgerFact> out = new ArrayList<>();
        forEach(clusterId, out::add);
        return out;
    }

    /** The current horizon: every transaction id below it is finished. */
    public String horizon() throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT pg_snapshot_xmin(pg_current_snapshot())::text");
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** The facts stored by transactions in {@code [from, to)}, by cluster. */
    public Map<String, List<LedgerFact>> between(String from, String to) throws SQLException {
        Map<String, List<LedgerFact>> out = new HashMap<>();
        read(COLUMNS + "WHERE tx >= ?::xid8 AND tx < ?::xid8", List.of(from, to), null,
                (cluster, fact) -> out.computeIfAbsent(cluster, k -> new ArrayList<>()).add(fact));
        return out;
    }

    /**
     * The earliest and latest event time of the facts stored by transactions in {@code [from, to)}, by cluster (a
     * cluster that stored none is absent): one aggregate, no fact read. What a live ledger's tick decides by whether it
     * applies a cluster's new facts in place or rebuilds it, with the earliest of the facts it took from memory
     * ({@link FreshFacts}), and whether a period may close among them ({@code live.TickHorizons}).
     */
    public Map<String, long[]> eventSpansByCluster(String from, String to) throws SQLException {
        Map<String, long[]> out = new HashMap<>();
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT cluster_id, min(event_time_ms), max(event_time_ms) "
                        + "FROM ledger_fact WHERE tx >= ?::xid8 AND tx < ?::xid8 GROUP BY cluster_id")) {
            ps.setString(1, from);
            ps.setString(2, to);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), new long[]{rs.getLong(2), rs.getLong(3)});
                }
            }
        }
        return out;
    }

    /**
     * The facts of {@code clusterId} stored by transactions in {@code [from, to)} but {@code taken}'s, in event-time
     * order (then dedupe key), handed to {@code sink} as read: what a live ledger's tick applies, one instant at a
     * time, without holding them (however many were stored while the previous tick ran), with those it took from
     * memory ({@link FreshFacts}).
     */
    public void forEachStored(String clusterId, String from, String to, FreshFacts.Taken taken,
            Consumer<LedgerFact> sink) throws SQLException {
        read(COLUMNS + "WHERE cluster_id = ? AND tx >= ?::xid8 AND tx < ?::xid8 AND tx <> ALL (?::xid8[]) "
                + "ORDER BY event_time_ms, dedupe_key", List.of(clusterId, from, to, taken.transactionArray()),
                clusterId,
                (cluster, fact) -> sink.accept(fact));
    }

    /**
     * The facts of {@code clusterId} with event time at or after {@code fromMs} stored by transactions before
     * {@code to}, in event-time order (then dedupe key), handed to {@code sink} as read: the tail a live ledger
     * restored from a checkpoint replays.
     */
    public void forEachSince(String clusterId, long fromMs, String to, Consumer<LedgerFact> sink) throws SQLException {
        read(COLUMNS + "WHERE cluster_id = ? AND event_time_ms >= ?::bigint AND tx < ?::xid8 "
                + "ORDER BY event_time_ms, dedupe_key", List.of(clusterId, Long.toString(fromMs), to), clusterId,
                (cluster, fact) -> sink.accept(fact));
    }

    /**
     * The facts of {@code clusterId} with event time in {@code [fromMs, untilMs]} stored by transactions before
     * {@code to}, in event-time order (then dedupe key), handed to {@code sink} as read: what a what-if replays. The
     * sink may stop the read by throwing; the cursor is closed and nothing more is read.
     */
    public void forEachBetween(String clusterId, long fromMs, long untilMs, String to, Consumer<LedgerFact> sink)
            throws SQLException {
        read(COLUMNS + "WHERE cluster_id = ? AND event_time_ms >= ?::bigint AND event_time_ms <= ?::bigint "
                + "AND tx < ?::xid8 ORDER BY event_time_ms, dedupe_key",
                List.of(clusterId, Long.toString(fromMs), Long.toString(untilMs), to), clusterId,
                (cluster, fact) -> sink.accept(fact));
    }

    /**
     * The latest event time among the stored facts of {@code clusterId} (committed ones), or null when none is stored:
     * the end of its {@code (cluster_id, event_time_ms)} index.
     */
    public Long latestStored(String clusterId) throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "SELECT max(event_time_ms) FROM ledger_fact WHERE cluster_id = ?")) {
            ps.setString(1, clusterId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                long latest = rs.getLong(1);
                return rs.wasNull() ? null : latest;
            }
        }
    }

    /**
     * The earliest event time at or after {@code fromMs} among the facts of {@code clusterId} stored by transactions in
     * {@code [from, to)}, or null when there are none: a checkpoint made at horizon {@code from} lacks every such fact.
     * <p>
     * The facts are found by their transactions and their minimum taken after ({@code OFFSET 0} keeps the subquery
     * apart): a plain {@code min(event_time_ms)} lets PostgreSQL walk the {@code (cluster_id, event_time_ms)} index
     * from the oldest fact until one of those transactions turns up, which, as the newest transactions mostly stored
     * the newest facts, passed over nearly every fact of the cluster (15 s at 10,000,000 facts, docs/benchmarks.md).
     */
    public Long earliestStored(String clusterId, long fromMs, String from, String to) throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT min(event_time_ms) FROM (SELECT event_time_ms "
                        + "FROM ledger_fact WHERE cluster_id = ? AND event_time_ms >= ? AND tx >= ?::xid8 "
                        + "AND tx < ?::xid8 OFFSET 0) stored")) {
            ps.setString(1, clusterId);
            ps.setLong(2, fromMs);
            ps.setString(3, from);
            ps.setString(4, to);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                long earliest = rs.getLong(1);
                return rs.wasNull() ? null : earliest;
            }
        }
    }

    /**
     * Every transaction in {@code [from, to)} that stored facts of {@code clusterId}, in position order, with when it
     * stored them and the span of their event times per source: one aggregate streamed through a cursor, no fact
     * decoded. What the period closer finds its closing positions and late facts by ({@code accounting.PeriodCloser});
     * it starts after its latest closing position, so the transaction index ({@code ledger_fact_tx}) bounds the read to
     * the facts stored since.
     */
    public void forEachTransaction(String clusterId, String from, String to, Consumer<StoredTransaction> sink)
            throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            boolean own = c.getAutoCommit();
            c.setAutoCommit(false);
            // ordered by the table's column: the text output column would sort 10 before 9
            try (PreparedStatement ps = c.prepareStatement("SELECT tx::text AS position, "
                    + "(extract(epoch FROM max(ingested_at)) * 1000)::bigint, source_topic, source_partition, "
                    + "min(event_time_ms), max(event_time_ms) FROM ledger_fact WHERE cluster_id = ? "
                    + "AND tx >= ?::xid8 AND tx < ?::xid8 GROUP BY ledger_fact.tx, source_topic, source_partition "
                    + "ORDER BY ledger_fact.tx, source_topic, source_partition")) {
                ps.setString(1, clusterId);
                ps.setString(2, from);
                ps.setString(3, to);
                ps.setFetchSize(FETCH_SIZE);
                try (ResultSet rs = ps.executeQuery()) {
                    long position = -1;
                    long arrivedAt = Long.MIN_VALUE;
                    List<StoredTransaction.Span> spans = new ArrayList<>();
                    while (rs.next()) {
                        long p = Long.parseLong(rs.getString(1));
                        if (p != position && !spans.isEmpty()) {
                            sink.accept(new StoredTransaction(position, arrivedAt, spans));
                            spans.clear();
                            arrivedAt = Long.MIN_VALUE;
                        }
                        position = p;
                        arrivedAt = Math.max(arrivedAt, rs.getLong(2));
                        spans.add(new StoredTransaction.Span(StoredTransaction.source(rs.getString(3), rs.getInt(4)),
                                rs.getLong(5), rs.getLong(6)));
                    }
                    if (!spans.isEmpty()) {
                        sink.accept(new StoredTransaction(position, arrivedAt, spans));
                    }
                }
            }
            if (own) {
                c.commit();
            }
        }
    }

    /** The stored start of {@code taskId} in {@code clusterId}, or null when none is stored. */
    public LedgerFact taskStart(String clusterId, String taskId) throws SQLException {
        List<LedgerFact> out = new ArrayList<>(1);
        // the key table names the month the start is stored in, so one partition is read
        String key = LedgerFact.taskKey(taskId, true);
        read(COLUMNS + "WHERE cluster_id = ? AND dedupe_key = ? AND event_time_ms = (SELECT event_time_ms "
                + "FROM ledger_fact_key WHERE cluster_id = ? AND dedupe_key = ?)",
                List.of(clusterId, key, clusterId, key), clusterId, (cluster, fact) -> out.add(fact));
        return out.isEmpty() ? null : out.get(0);
    }

    private interface Sink {
        void accept(String cluster, LedgerFact fact);
    }

    /**
     * Runs {@code sql} with {@code parameters} through a cursor: a cursor needs a transaction, the caller's or ours.
     * When every row is of {@code clusterId} (not null), its column is not decoded again for each row.
     */
    private void read(String sql, List<String> parameters, String clusterId, Sink sink) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            boolean own = c.getAutoCommit();
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                for (int i = 0; i < parameters.size(); i++) {
                    ps.setString(i + 1, parameters.get(i));
                }
                ps.setFetchSize(FETCH_SIZE);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String cluster = clusterId != null ? clusterId : rs.getString(1);
                        sink.accept(cluster, FactCodec.decode(rs.getString(2), cluster, rs.getLong(3), rs.getString(4),
                                rs.getString(5)));
                    }
                }
            }
            if (own) {
                c.commit();
            }
        }
    }
}
