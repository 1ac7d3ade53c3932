package io.fairledger.accounting;

import io.fairledger.tenancy.LedgerSettings;
import io.fairledger.facts.LedgerFact;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fairledger.facts.FactCursor;
import io.fairledger.core.chargeback.Statement;
import io.fairledger.core.fairness.FairnessReport;
import io.fairledger.core.replay.ReplayResult;
import io.fairledger.tenancy.ClosablePeriods;
import io.fairledger.tenancy.TenancyService;
import io.fairledger.errors.Conflict;
import io.fairledger.errors.Invalid;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

/**
 * A cluster's statements. Statements are {@link Books#statements} over the stored facts, the very
 * computation {@code fairledger account} runs on a file; closed periods are kept as closed, and late events for them
 * are settled by {@link LateAdjustments}. Before a configuration change ({@code tenancy.ConfigurationChanges}) it
 * closes the periods the change must not rewrite.
 */
@ApplicationScoped
public class StatementService implements ClosablePeriods {

    @Inject
    TenancyService tenancy;

    @Inject
    FactCursor facts;

    @Inject
    ObjectMapper json;

    @Inject
    DataSource dataSource;

    /**
     * Closes every period that can be closed now (as a statements request would) and returns the instant from which a
     * configuration change takes effect: the start of the earliest period not closed, or null when the cluster has no
     * ledger settings yet (then a change counts from its registration).
     */
    @Override
    public Instant closeBeforeChange(String clusterId) {
        if (!tenancy.hasLedgerSettings(clusterId)) {
            return null;
        }
        LedgerSettings settings = settings(clusterId);
        Instant now = Instant.now();
        if (now.isAfter(settings.registeredAt())) {
            statements(clusterId, now);
        }
        return openSince(clusterId, settings);
    }

    private Instant openSince(String clusterId, LedgerSettings settings) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "SELECT max(period_end_ms) FROM closed_statement WHERE cluster_id = ?")) {
            ps.setString(1, clusterId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                long end = rs.getLong(1);
                return rs.wasNull() ? settings.registeredAt() : Instant.ofEpochMilli(end);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the closed periods of " + clusterId, e);
        }
    }

    /** One period of a what-if: its statement and the fairness it would have had. */
    public record WhatIfPeriod(StatementView statement, double sharingBenefit, double sharingLoss, double jainFairness,
            double equality) {
    }

    /**
     * The statements and fairness of the periods ending in {@code (from, until]} had {@code variant} been the
     * configuration (the live one when null; its tenant tree when the variant lists none), computed from the stored
     * facts by the same replay as the live books, without touching them.
     */
    public List<WhatIfPeriod> whatIf(String clusterId, LedgerSettings variant, Instant from, Instant until) {
        LedgerSettings live = settings(clusterId);
        LedgerSettings used = variant == null
                ? live
                : variant.tenants() == null
                        ? variant.withTenants(live.tenants())
                        : variant;
        if (!until.isAfter(from)) {
            throw new Invalid("until " + until + " must be after from " + from);
        }
        try {
            used.toReplayConfig(clusterId, until);
        } catch (IllegalArgumentException e) {
            throw new Invalid("invalid ledger settings: " + e.getMessage());
        }
        if (until.isBefore(used.registeredAt())) {
            throw new Invalid("until " + until + " is before the cluster's registration "
                    + used.registeredAt());
        }
        try {
            ReplayResult result = Books.replay(clusterId, used, facts.facts(clusterId), until);
            List<WhatIfPeriod> out = new ArrayList<>();
            for (int i = 0; i < result.statements().size(); i++) {
                Statement s = result.statements().get(i);
                if (s.period().end() > from.toEpochMilli()) {
                    FairnessReport f = result.fairness().get(i);
                    out.add(new WhatIfPeriod(StatementView.of(s), f.sharingBenefit(), f.sharingLoss(),
                            f.jainFairness(), f.equality()));
                }
            }
            return out;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the facts of " + clusterId, e);
        }
    }

    /** The settings with the cluster's current tenant tree ({@link TenancyService#ledgerSettings}). */
    public LedgerSettings settings(String clusterId) {
        return tenancy.ledgerSettings(clusterId);
    }

    /**
     * Statements of every period ended by {@code until}. A period whose end lies {@code allowedLateness} or more before
     * the latest stored event of the cluster is closed: its statement is stored the first time it is asked for, with the
     * adjustments then due for earlier closed periods, and from then on returned as stored. Younger periods are
     * provisional: recomputed from the stored facts on every request.
     */
    public List<StatementView> statements(String clusterId, Instant until) {
        LedgerSettings settings = settings(clusterId);
        if (until.isBefore(settings.registeredAt())) {
            throw new Invalid("until " + until + " is before the cluster's registration "
                    + settings.registeredAt());
        }
        try {
            List<LedgerFact> replayed = facts.facts(clusterId);
            List<StatementView> computed = Books.statements(clusterId, settings, replayed, until);
            // the watermark of the very facts replayed: facts committed meanwhile must not close a period
            long closeBefore = replayed.isEmpty()
                    ? Long.MIN_VALUE
                    : replayed.get(replayed.size() - 1).at() - settings.lateness().toMillis();
            List<StatementView> closed = closedStatements(clusterId);
            Map<String, StatementView> closedById = new LinkedHashMap<>();
            closed.forEach(c -> closedById.put(c.period(), c));
            Map<String, StatementView> computedById = new LinkedHashMap<>();
            computed.forEach(c -> computedById.put(c.period(), c));
            List<StatementView> result = new ArrayList<>(computed.size());
            for (StatementView view : computed) {
                StatementView stored = closedById.get(view.period());
                if (stored != null) {
                    result.add(stored);
                } else if (view.end().toEpochMilli() <= closeBefore) {
                    StatementView closing = LateAdjustments.carry(view,
                            LateAdjustments.due(closed, computedById));
                    StatementView kept = close(clusterId, closing);
                    closed.add(kept);
                    result.add(kept);
                } else {
                    result.add(view);
                }
            }
            return result;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the books of " + clusterId, e);
        }
    }

    private List<StatementView> closedStatements(String clusterId) throws SQLException {
        List<StatementView> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT statement::text FROM closed_statement "
                        + "WHERE cluster_id = ? ORDER BY period_end_ms")) {
            ps.setString(1, clusterId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(read(rs.getString(1)));
                }
            }
        }
        return out;
    }

    /** Stores {@code statement} as closed; when another replica closed it first, theirs stands and is returned. */
    private StatementView close(String clusterId, StatementView statement) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO closed_statement (cluster_id, period_id, "
                    + "period_end_ms, statement) VALUES (?, ?, ?, ?::jsonb) ON CONFLICT DO NOTHING")) {
                ps.setString(1, clusterId);
                ps.setString(2, statement.period());
                ps.setLong(3, statement.end().toEpochMilli());
                ps.setString(4, json.writeValueAsString(statement));
                if (ps.executeUpdate() == 1) {
                    return statement;
                }
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("cannot serialise a statement", e);
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT statement::text FROM closed_statement WHERE cluster_id = ? AND period_id = ?")) {
                ps.setString(1, clusterId);
                ps.setString(2, statement.period());
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return read(rs.getString(1));
                }
            }
        }
    }

    private StatementView read(String text) {
        try {
            return json.readValue(text, StatementView.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored statement is unreadable", e);
        }
    }
}
