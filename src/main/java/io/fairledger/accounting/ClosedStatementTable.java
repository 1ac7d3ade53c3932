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

import javax.sql.DataSource;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fairledger.accounting.PeriodCloser.ClosedPeriod;
import io.fairledger.core.chain.ChainLink;
import io.fairledger.core.chain.JsonText;
import io.fairledger.core.chain.StatementChain;
import io.fairledger.tenancy.LedgerSettings;

/**
 * One cluster's closed periods in table {@code closed_statement}: the statement as closed, the settings it was kept
 * under and the arrival position it was computed at, with its lines one per row in {@code closed_statement_line} (same
 * transaction) and the statement's JSON text as the API writes it. A row is inserted once and its statement never
 * changes; when replicas race to close a period, the first insert wins and the others read it back. Reads that do not
 * need every statement parsed: {@link #closings} (no statements) here, the API's texts and one tenant's lines in
 * {@link ClosedStatementReads}.
 */
final class ClosedStatementTable implements PeriodCloser.ClosedStatements {

    private final DataSource dataSource;
    private final ObjectMapper json;
    private final String clusterId;
    private final LedgerSettings inForce;
    private final LedgerKeys keys;

    /**
     * The table of {@code clusterId}; rows closed before settings were stored read as kept under {@code inForce}; the
     * periods stored are chained and signed with {@code keys}.
     */
    ClosedStatementTable(DataSource dataSource, ObjectMapper json, String clusterId, LedgerSettings inForce,
            LedgerKeys keys) {
        this.dataSource = dataSource;
        this.json = json;
        this.clusterId = clusterId;
        this.inForce = inForce;
        this.keys = keys;
    }

    @Override
    public List<ClosedPeriod> closed() {
        return closedBy(Long.MAX_VALUE);
    }

    /** The closed periods ending at or before {@code endMs}, in period order: a prefix of {@link #closed()}. */
    List<ClosedPeriod> closedBy(long endMs) {
        return read("statement", "period_end_ms <= ?", endMs);
    }

    /** Read from column {@code head}, their statement without lines; settings read only where not those in force. */
    @Override
    public List<ClosedPeriod> periods() {
        return read("head", "period_end_ms <= ?", Long.MAX_VALUE);
    }

    @Override
    public List<ClosedPeriod> closedFrom(long endMs) {
        return read("statement", "period_end_ms >= ?", endMs);
    }

    /**
     * The closed periods where {@code condition} holds of {@code endMs}, in period order, their statement read from
     * column {@code statement} (whole) or {@code head} (without lines); the settings stored with each are read only
     * when they are not those in force (a period closed under the settings in force, nearly all of them, costs no
     * settings text read nor parsed).
     */
    private List<ClosedPeriod> read(String column, String condition, long endMs) {
        List<ClosedPeriod> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT " + column + "::text, CASE WHEN settings = ?::jsonb "
                        + "THEN NULL ELSE settings::text END, fact_position, " + ClosedStatementReads.CHAIN
                        + " FROM closed_statement WHERE cluster_id = ? AND " + condition + " ORDER BY period_end_ms")) {
            ps.setString(1, json.writeValueAsString(inForce));
            ps.setString(2, clusterId);
            ps.setLong(3, endMs);
            Map<String, LedgerSettings> parsed = new HashMap<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(row(rs, parsed));
                }
            }
        } catch (SQLException | JsonProcessingException e) {
            throw new IllegalStateException("cannot read the closed periods of " + clusterId, e);
        }
        return out;
    }

    /**
     * The closed periods ending at or before {@code endMs}, in period order, without their statements: what callers
     * that need only the periods read ({@link StatementService#closedUntil}, retention).
     */
    List<Closing> closings(long endMs) {
        List<Closing> out = new ArrayList<>();
        Map<String, LedgerSettings> parsed = new HashMap<>();
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT period_id, period_end_ms, settings::text, "
                        + "fact_position FROM closed_statement WHERE cluster_id = ? AND period_end_ms <= ? "
                        + "ORDER BY period_end_ms")) {
            ps.setString(1, clusterId);
            ps.setLong(2, endMs);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String settings = rs.getString(3);
                    out.add(new Closing(rs.getString(1), Instant.ofEpochMilli(rs.getLong(2)),
                            settings == null ? inForce : parsed.computeIfAbsent(settings, this::settings),
                            rs.getLong(4)));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the closed periods of " + clusterId, e);
        }
        return out;
    }

    /** A closed period without its statement: its id, end, the settings it was kept under and its position. */
    record Closing(String period, Instant end, LedgerSettings settings, long position) {
    }

    /**
     * Stores {@code period} chained after the cluster's latest chained period (the first after the genesis value) and
     * signed ({@link LedgerKeys#link}): its hash covers the statement's JSON exactly as stored in column
     * {@code statement}. A replica that closed the same period first wins, with the same link.
     */
    @Override
    public ClosedPeriod store(ClosedPeriod period) {
        String id = period.statement().period();
        try (Connection c = dataSource.getConnection()) {
            String statement = json.writeValueAsString(period.statement());
            ChainLink link = link(c, statement);
            // one statement, so the lines are stored with the statement or not at all, whether or not the caller runs
            // a transaction (a configuration change does)
            try (PreparedStatement ps = c.prepareStatement("WITH s AS (INSERT INTO closed_statement (cluster_id, "
                    + "period_id, period_end_ms, statement, settings, fact_position, " + ClosedStatementReads.CHAIN
                    + ") VALUES (?, ?, ?, ?::jsonb, ?::jsonb, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING "
                    + "RETURNING cluster_id, period_id, period_end_ms, statement), l AS (INSERT INTO closed_statement_line (cluster_id, period_id, period_end_ms, tenant, line_no, "
                    + "line) SELECT s.cluster_id, s.period_id, s.period_end_ms, l.line ->> 'tenant', l.n, l.line "
                    + "FROM s, jsonb_array_elements(s.statement -> 'lines') WITH ORDINALITY AS l (line, n)) "
                    + "SELECT count(*) FROM s")) {
                ps.setString(1, clusterId);
                ps.setString(2, id);
                ps.setLong(3, period.statement().end().toEpochMilli());
                ps.setString(4, statement);
                ps.setString(5, json.writeValueAsString(period.settings()));
                ps.setLong(6, period.position());
                ps.setLong(7, link.sequence());
                ps.setString(8, link.previous());
                ps.setString(9, link.hash());
                ps.setString(10, link.signature());
                ps.setString(11, link.keyId());
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    if (rs.getLong(1) == 1) {
                        // its API text; should this fail, the first read fills it
                        ClosedStatementReads.fillApiJson(c, json, clusterId, id);
                        return new ClosedPeriod(period.statement().withChain(link), period.settings(),
                                period.position());
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT statement::text, settings::text, fact_position, "
                    + ClosedStatementReads.CHAIN + " FROM closed_statement WHERE cluster_id = ? AND period_id = ?")) {
                ps.setString(1, clusterId);
                ps.setString(2, id);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return row(rs, new HashMap<>());
                }
            }
        } catch (SQLException | JsonProcessingException e) {
            throw new IllegalStateException("cannot store the closed period " + id + " of " + clusterId, e);
        }
    }

    /** The link of {@code statement} (its JSON text) after the cluster's latest chained period. */
    private ChainLink link(Connection c, String statement) throws SQLException {
        long sequence = 1;
        String previous = StatementChain.GENESIS;
        try (PreparedStatement ps = c.prepareStatement("SELECT chain_sequence, chain_hash FROM closed_statement "
                + "WHERE cluster_id = ? AND chain_sequence IS NOT NULL ORDER BY chain_sequence DESC LIMIT 1")) {
            ps.setString(1, clusterId);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    sequence = rs.getLong(1) + 1;
                    previous = rs.getString(2);
                }
            }
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> parsed = (Map<String, Object>) JsonText.parse(statement);
        return keys.link(sequence, previous, parsed);
    }

    private LedgerSettings settings(String text) {
        try {
            return json.readValue(text, LedgerSettings.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the stored settings of a closed period of " + clusterId
                    + " are unreadable", e);
        }
    }

    private ClosedPeriod row(ResultSet rs, Map<String, LedgerSettings> parsed) throws SQLException {
        try {
            StatementView statement = json.readValue(rs.getString(1), StatementView.class);
            if (statement.lines() == null) {
                statement = new StatementView(statement.cluster(), statement.period(), statement.start(),
                        statement.end(), statement.state(), statement.model(), statement.currency(),
                        statement.totalCharge(), List.of(), statement.prorated(), null);
            }
            String settings = rs.getString(2);
            return new ClosedPeriod(statement.in(StatementView.CLOSED).withChain(ClosedStatementReads.chain(rs, 4)),
                    settings == null ? inForce : parsed.computeIfAbsent(settings, this::settings), rs.getLong(3));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored statement of " + clusterId + " is unreadable", e);
        }
    }
}
