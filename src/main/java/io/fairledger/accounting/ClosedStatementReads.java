package io.fairledger.accounting;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import javax.sql.DataSource;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fairledger.core.chain.ChainLink;
import io.fairledger.core.model.TenantPath;

/**
 * The reads of one cluster's closed statements ({@link ClosedStatementTable}) that do not parse every stored statement:
 * the statements as the JSON text the API writes (column {@code api_json}), sent as stored, and one tenant's or one
 * subtree's lines from their own rows ({@code closed_statement_line}).
 */
final class ClosedStatementReads {

    /** The chain columns of {@code closed_statement}, in the order of {@link ChainLink}'s components. */
    static final String CHAIN = "chain_sequence, chain_previous, chain_hash, chain_signature, chain_key_id";

    private final DataSource dataSource;
    private final ObjectMapper json;
    private final String clusterId;

    ClosedStatementReads(DataSource dataSource, ObjectMapper json, String clusterId) {
        this.dataSource = dataSource;
        this.json = json;
        this.clusterId = clusterId;
    }

    /**
     * The statements of the closed periods ending after {@code afterMs} and at or before {@code endMs}, the first
     * {@code limit} of them in period order, each as the JSON text the API writes for it ({@link StatementView} in
     * state {@code closed}), read as stored, not parsed; with the end of each. The periods in {@code known} (whose
     * text the caller holds) come without their text (null), which PostgreSQL then does not read. Rows stored before
     * that text was kept get it now ({@link #fillApiJson}).
     */
    List<ApiJson> apiJson(long afterMs, long endMs, int limit, Set<String> known) {
        List<ApiJson> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection()) {
            List<String> missing = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT period_id, period_end_ms, api_json IS NULL, "
                    + "CASE WHEN period_id = ANY (?) THEN NULL ELSE api_json END FROM closed_statement "
                    + "WHERE cluster_id = ? AND period_end_ms > ? AND period_end_ms <= ? ORDER BY period_end_ms "
                    + "LIMIT ?")) {
                ps.setArray(1, c.createArrayOf("text", known.toArray()));
                ps.setString(2, clusterId);
                ps.setLong(3, afterMs);
                ps.setLong(4, endMs);
                ps.setInt(5, limit);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        if (rs.getBoolean(3)) {
                            missing.add(rs.getString(1));
                        }
                        // the text's bytes as the server sent them (UTF-8), not decoded
                        out.add(new ApiJson(rs.getString(1), Instant.ofEpochMilli(rs.getLong(2)), rs.getBytes(4)));
                    }
                }
            }
            if (!missing.isEmpty()) {
                for (String period : missing) {
                    fillApiJson(c, json, clusterId, period);
                }
                return apiJson(afterMs, endMs, limit, known);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the closed periods of " + clusterId, e);
        }
        return out;
    }

    /** A period's end and its statement as the API's JSON text, in UTF-8 (null when the caller holds it). */
    record ApiJson(String period, Instant end, byte[] text) {
    }

    /**
     * The closed periods ending after {@code afterMs} and at or before {@code endMs}, the first {@code limit} of them
     * in period order, each with only the lines of {@code tenant} (and with {@code subtree}, of every tenant under
     * it), in statement order; read from {@code closed_statement_line}, so the cost grows with the lines returned, not
     * with the statements' size. The statements' {@code totalCharge} is kept as stored.
     */
    List<StatementView> closedWithLinesOf(TenantPath tenant, boolean subtree, long afterMs, long endMs, int limit) {
        Map<String, List<StatementView.Line>> lines = new HashMap<>();
        List<StatementView> heads = new ArrayList<>();
        List<String> periods = new ArrayList<>();
        List<ChainLink> chains = new ArrayList<>();
        String id = tenant.toString();
        try (Connection c = dataSource.getConnection()) {
            try (PreparedStatement ps = c.prepareStatement("SELECT period_id, head::text, " + CHAIN
                    + " FROM closed_statement "
                    + "WHERE cluster_id = ? AND period_end_ms > ? AND period_end_ms <= ? ORDER BY period_end_ms "
                    + "LIMIT ?")) {
                ps.setString(1, clusterId);
                ps.setLong(2, afterMs);
                ps.setLong(3, endMs);
                ps.setInt(4, limit);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        periods.add(rs.getString(1));
                        heads.add(json.readValue(rs.getString(2), StatementView.class));
                        chains.add(chain(rs, 3));
                    }
                }
            }
            if (heads.isEmpty()) {
                return heads;
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT period_id, line::text FROM closed_statement_line "
                    + "WHERE cluster_id = ? AND period_end_ms > ? AND period_end_ms <= ? "
                    + "AND (tenant = ? OR (? AND tenant > ? AND tenant < ?)) ORDER BY period_end_ms, line_no")) {
                ps.setString(1, clusterId);
                ps.setLong(2, afterMs);
                ps.setLong(3, heads.get(heads.size() - 1).end().toEpochMilli());
                ps.setString(4, id);
                ps.setBoolean(5, subtree);
                // paths are written "root.a.b" (TenantPath#toString); in bytewise order ('/' follows '.') the paths
                // under id are those between "id." and "id/"
                ps.setString(6, id + ".");
                ps.setString(7, id + "/");
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        lines.computeIfAbsent(rs.getString(1), p -> new ArrayList<>())
                                .add(json.readValue(rs.getString(2), StatementView.Line.class));
                    }
                }
            }
        } catch (SQLException | JsonProcessingException e) {
            throw new IllegalStateException("cannot read the closed lines of " + id + " in " + clusterId, e);
        }
        List<StatementView> out = new ArrayList<>();
        for (int i = 0; i < heads.size(); i++) {
            StatementView head = heads.get(i);
            out.add(new StatementView(head.cluster(), head.period(), head.start(), head.end(), StatementView.CLOSED,
                    head.model(), head.currency(), head.totalCharge(), lines.getOrDefault(periods.get(i), List.of()),
                    head.prorated(), chains.get(i)));
        }
        return out;
    }

    /**
     * Each closed period of the cluster in period order as stored, for the check of its chain, streamed (a cursor, a
     * few rows at a time): the statement's JSON text (column {@code statement}), its chain link (null before the chain
     * existed), the API's text (null until first read) and whether its line rows ({@code closed_statement_line},
     * which tenants read) are the statement's lines. Stops when {@code sink} returns false.
     */
    void forEachStored(Predicate<Stored> sink) {
        try (Connection c = dataSource.getConnection()) {
            boolean own = c.getAutoCommit();
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("SELECT s.period_id, s.statement::text, s.api_json, "
                    + "s.statement -> 'lines' = (SELECT coalesce(jsonb_agg(l.line ORDER BY l.line_no), '[]') "
                    + "FROM closed_statement_line l WHERE l.cluster_id = s.cluster_id AND l.period_id = s.period_id), "
                    + CHAIN + " FROM closed_statement s WHERE s.cluster_id = ? ORDER BY s.period_end_ms")) {
                ps.setString(1, clusterId);
                // a statement of 1,000 tenants is about 400 KB, twice (statement and API text)
                ps.setFetchSize(8);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        if (!sink.test(new Stored(rs.getString(1), rs.getString(2), chain(rs, 5), rs.getString(3),
                                rs.getBoolean(4)))) {
                            break;
                        }
                    }
                }
            }
            if (own) {
                c.commit();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the closed periods of " + clusterId, e);
        }
    }

    /** A closed period as stored: its statement's text, chain link, API text and whether its line rows match. */
    record Stored(String period, String statement, ChainLink chain, String apiJson, boolean linesMatch) {
    }

    /**
     * The chain link in the columns {@link #CHAIN} from column {@code first} on; null for a period closed before the
     * chain existed.
     */
    static ChainLink chain(ResultSet rs, int first) throws SQLException {
        long sequence = rs.getLong(first);
        return rs.wasNull()
                ? null
                : new ChainLink(sequence, rs.getString(first + 1), rs.getString(first + 2),
                        rs.getString(first + 3), rs.getString(first + 4));
    }

    /**
     * Sets the API's JSON text of stored period {@code period} where it is not set: the stored statement read back as
     * every read parsed it before that text was kept, in state {@code closed}, written by the API's mapper, so that
     * the text sent is the same, byte for byte, as the statement parsed and written again.
     */
    static void fillApiJson(Connection c, ObjectMapper json, String clusterId, String period) throws SQLException {
        String stored;
        ChainLink link;
        try (PreparedStatement ps = c.prepareStatement("SELECT statement::text, " + CHAIN + " FROM closed_statement "
                + "WHERE cluster_id = ? AND period_id = ?")) {
            ps.setString(1, clusterId);
            ps.setString(2, period);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                stored = rs.getString(1);
                link = chain(rs, 2);
            }
        }
        String text;
        try {
            text = json.writeValueAsString(
                    json.readValue(stored, StatementView.class).in(StatementView.CLOSED).withChain(link));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored statement of " + clusterId + " is unreadable", e);
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE closed_statement SET api_json = ? "
                + "WHERE cluster_id = ? AND period_id = ? AND api_json IS NULL")) {
            ps.setString(1, text);
            ps.setString(2, clusterId);
            ps.setString(3, period);
            ps.executeUpdate();
        }
    }
}
