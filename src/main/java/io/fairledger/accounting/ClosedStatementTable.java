package io.fairledger.accounting;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fairledger.accounting.PeriodCloser.ClosedPeriod;
import io.fairledger.tenancy.LedgerSettings;

/**
 * One cluster's closed periods in table {@code closed_statement}: the statement as closed, the settings it was kept
 * under and the arrival position it was computed at. A row is inserted once and never updated; when replicas race to
 * close a period, the first insert wins and the others read it back.
 */
final class ClosedStatementTable implements PeriodCloser.ClosedStatements {

    private final DataSource dataSource;
    private final ObjectMapper json;
    private final String clusterId;
    private final LedgerSettings inForce;

    /** The table of {@code clusterId}; rows closed before settings were stored read as kept under {@code inForce}. */
    ClosedStatementTable(DataSource dataSource, ObjectMapper json, String clusterId, LedgerSettings inForce) {
        this.dataSource = dataSource;
        this.json = json;
        this.clusterId = clusterId;
        this.inForce = inForce;
    }

    @Override
    public List<ClosedPeriod> closed() {
        return closedBy(Long.MAX_VALUE);
    }

    /** The closed periods ending at or before {@code endMs}, in period order: a prefix of {@link #closed()}. */
    List<ClosedPeriod> closedBy(long endMs) {
        List<ClosedPeriod> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT statement::text, settings::text, fact_position "
                        + "FROM closed_statement WHERE cluster_id = ? AND period_end_ms <= ? "
                        + "ORDER BY period_end_ms")) {
            ps.setString(1, clusterId);
            ps.setLong(2, endMs);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(row(rs));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the closed periods of " + clusterId, e);
        }
        return out;
    }

    @Override
    public ClosedPeriod store(ClosedPeriod period) {
        try (Connection c = dataSource.getConnection()) {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO closed_statement (cluster_id, period_id, "
                    + "period_end_ms, statement, settings, fact_position) VALUES (?, ?, ?, ?::jsonb, ?::jsonb, ?) "
                    + "ON CONFLICT DO NOTHING")) {
                ps.setString(1, clusterId);
                ps.setString(2, period.statement().period());
                ps.setLong(3, period.statement().end().toEpochMilli());
                ps.setString(4, json.writeValueAsString(period.statement()));
                ps.setString(5, json.writeValueAsString(period.settings()));
                ps.setLong(6, period.position());
                if (ps.executeUpdate() == 1) {
                    return period;
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT statement::text, settings::text, fact_position "
                    + "FROM closed_statement WHERE cluster_id = ? AND period_id = ?")) {
                ps.setString(1, clusterId);
                ps.setString(2, period.statement().period());
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return row(rs);
                }
            }
        } catch (SQLException | JsonProcessingException e) {
            throw new IllegalStateException("cannot store the closed period " + period.statement().period() + " of "
                    + clusterId, e);
        }
    }

    private ClosedPeriod row(ResultSet rs) throws SQLException {
        try {
            StatementView statement = json.readValue(rs.getString(1), StatementView.class);
            String settings = rs.getString(2);
            return new ClosedPeriod(statement.in(StatementView.CLOSED),
                    settings == null ? inForce : json.readValue(settings, LedgerSettings.class), rs.getLong(3));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored statement of " + clusterId + " is unreadable", e);
        }
    }
}
