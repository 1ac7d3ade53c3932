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

import javax.sql.DataSource;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fairledger.core.model.TenantPath;

/**
 * The reads of one cluster's closed statements ({@link ClosedStatementTable}) that do not parse every stored statement:
 * the statements as the JSON text the API writes (column {@code api_json}), sent as stored, and one tenant's or one
 * subtree's lines from their own rows ({@code closed_statement_line}).
 */
final class ClosedStatementReads {

    private final DataSource dataSource;
    private final ObjectMapper json;
    private final String clusterId;

    ClosedStatementReads(DataSource dataSource, ObjectMapper json, String clusterId) {
        this.dataSource = dataSource;
        this.json = json;
        this.clusterId = clusterId;
    }

    /**
     * The statements of the closed periods ending at or before {@code endMs}, in period order, each as the JSON text
     * the API writes for it ({@link StatementView} in state {@code closed}), read as stored, not parsed; with the end
     * of each. The periods in {@code known} (whose text the caller holds) come without their text (null), which
     * PostgreSQL then does not read. Rows stored before that text was kept get it now ({@link #fillApiJson}).
     */
    List<ApiJson> apiJson(long endMs, Set<String> known) {
        List<ApiJson> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection()) {
            List<String> missing = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT period_id, period_end_ms, api_json IS NULL, "
                    + "CASE WHEN period_id = ANY (?) THEN NULL ELSE api_json END "
                    + "FROM closed_statement WHERE cluster_id = ? AND period_end_ms <= ? ORDER BY period_end_ms")) {
                ps.setArray(1, c.createArrayOf("text", known.toArray()));
                ps.setString(2, clusterId);
                ps.setLong(3, endMs);
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
                return apiJson(endMs, known);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the closed periods of " + clusterId, e);
        }
        return out;
    }

    /** A closed period's end and its statement as the API's JSON text, in UTF-8. */
    record ApiJson(String period, Instant end, byte[] text) {
    }

    /**
     * The closed periods ending at or before {@code endMs}, in period order, each with only the lines of
     * {@code tenant} (and with {@code subtree}, of every tenant under it), in statement order; read from
     * {@code closed_statement_line}, so the cost grows with the lines returned, not with the statements' size. The
     * statements' {@code totalCharge} is kept as stored.
     */
    List<StatementView> closedWithLinesOf(TenantPath tenant, boolean subtree, long endMs) {
        Map<String, List<StatementView.Line>> lines = new HashMap<>();
        List<StatementView> heads = new ArrayList<>();
        String id = tenant.toString();
        try (Connection c = dataSource.getConnection()) {
            try (PreparedStatement ps = c.prepareStatement("SELECT period_id, line::text FROM closed_statement_line "
                    + "WHERE cluster_id = ? AND period_end_ms <= ? AND (tenant = ? OR (? AND tenant > ? AND tenant < ?)) "
                    + "ORDER BY period_end_ms, line_no")) {
                ps.setString(1, clusterId);
                ps.setLong(2, endMs);
                ps.setString(3, id);
                ps.setBoolean(4, subtree);
                // paths are written "root.a.b" (TenantPath#toString); in bytewise order ('/' follows '.') the paths
                // under id are those between "id." and "id/"
                ps.setString(5, id + ".");
                ps.setString(6, id + "/");
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        lines.computeIfAbsent(rs.getString(1), p -> new ArrayList<>())
                                .add(json.readValue(rs.getString(2), StatementView.Line.class));
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT period_id, head::text FROM closed_statement "
                    + "WHERE cluster_id = ? AND period_end_ms <= ? ORDER BY period_end_ms")) {
                ps.setString(1, clusterId);
                ps.setLong(2, endMs);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        StatementView head = json.readValue(rs.getString(2), StatementView.class);
                        heads.add(new StatementView(head.cluster(), head.period(), head.start(), head.end(),
                                StatementView.CLOSED, head.model(), head.currency(), head.totalCharge(),
                                lines.getOrDefault(rs.getString(1), List.of()), head.prorated()));
                    }
                }
            }
        } catch (SQLException | JsonProcessingException e) {
            throw new IllegalStateException("cannot read the closed lines of " + id + " in " + clusterId, e);
        }
        return heads;
    }

    /**
     * Sets the API's JSON text of stored period {@code period} where it is not set: the stored statement read back as
     * every read parsed it before that text was kept, in state {@code closed}, written by the API's mapper, so that
     * the text sent is the same, byte for byte, as the statement parsed and written again.
     */
    static void fillApiJson(Connection c, ObjectMapper json, String clusterId, String period) throws SQLException {
        String stored;
        try (PreparedStatement ps = c.prepareStatement("SELECT statement::text FROM closed_statement "
                + "WHERE cluster_id = ? AND period_id = ?")) {
            ps.setString(1, clusterId);
            ps.setString(2, period);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                stored = rs.getString(1);
            }
        }
        String text;
        try {
            text = json.writeValueAsString(
                    json.readValue(stored, StatementView.class).in(StatementView.CLOSED));
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
