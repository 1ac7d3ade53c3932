package io.fairledger.live;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.fairledger.accounting.FactCodec;
import io.fairledger.accounting.LedgerFact;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import javax.sql.DataSource;

/**
 * Reads stored facts by ranges of the transaction ids that stored them (V4 migration). Every fact of a transaction
 * older than the <em>horizon</em>, the oldest transaction still running, is final: reading {@code [from, horizon)} and
 * then {@code [horizon, next horizon)} misses no fact and reads none twice, whichever server committed it and in
 * whatever order the transactions finished.
 */
@ApplicationScoped
public class FactCursor {

    /** What a fact is stored as ({@link FactCodec#decode}). */
    private static final String COLUMNS = "SELECT cluster_id, kind, event_time_ms, dedupe_key, fact FROM ledger_fact ";

    /** The horizon before any fact. */
    public static final String START = "0";

    @Inject
    DataSource dataSource;

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
        read(COLUMNS + "WHERE tx >= ?::xid8 AND tx < ?::xid8", from, to,
                (cluster, fact) -> out.computeIfAbsent(cluster, k -> new ArrayList<>()).add(fact));
        return out;
    }

    /** Every fact of {@code clusterId} stored by transactions before {@code to}. */
    public List<LedgerFact> before(String clusterId, String to) throws SQLException {
        List<LedgerFact> out = new ArrayList<>();
        read(COLUMNS + "WHERE cluster_id = ? AND tx < ?::xid8", clusterId, to,
                (cluster, fact) -> out.add(fact));
        return out;
    }

    private interface Sink {
        void accept(String cluster, LedgerFact fact);
    }

    private void read(String sql, String first, String second, Sink sink) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                ps.setString(1, first);
                ps.setString(2, second);
                ps.setFetchSize(10_000);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String cluster = rs.getString(1);
                        sink.accept(cluster, FactCodec.decode(rs.getString(2), cluster, rs.getLong(3), rs.getString(4),
                                rs.getString(5)));
                    }
                }
            }
            c.commit();
        }
    }
}
