package io.fairledger.live;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import io.fairledger.accounting.ClusterWriter;
import io.fairledger.observability.MetricNames;

/**
 * The one owner of table {@code ledger_checkpoint} (V40): the stored states of the live ledgers
 * ({@link LiveLedger#checkpoint}), by cluster, settings version and event time, each with the fact cursor's horizon it
 * was made at. Only the cluster's writer stores them ({@link ClusterWriter}; counter {@value #STORED}: the checkpoints
 * this replica stored); should two store the same one, the first one stands. A checkpoint retention has pinned
 * (the ledger's state where the cluster's kept facts begin, {@link #pin}) is never pruned nor deleted.
 */
@ApplicationScoped
public class LedgerCheckpoints {

    /** Counter per cluster: the checkpoints this replica stored. */
    public static final String STORED = "fairledger.live.checkpoints.stored";

    /**
     * A stored checkpoint, without its state.
     *
     * @param eventTimeMs
     *            every fact up to this event time is in it ({@link LiveLedger#lastApplied})
     * @param horizon
     *            the fact cursor's horizon it was made at: it holds no fact stored by a transaction at or after it
     * @param facts
     *            how many facts it holds
     */
    public record Stored(long eventTimeMs, String horizon, long facts) {
    }

    @Inject
    DataSource dataSource;

    @Inject
    ClusterWriter writer;

    @Inject
    MeterRegistry registry;

    /** The checkpoints of {@code clusterId} under {@code version} made at or before {@code horizon}, newest first. */
    public List<Stored> newestFirst(String clusterId, String version, String horizon) throws SQLException {
        List<Stored> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT event_time_ms, fact_horizon::text, facts "
                        + "FROM ledger_checkpoint WHERE cluster_id = ? AND settings_version = ? "
                        + "AND fact_horizon <= ?::xid8 ORDER BY event_time_ms DESC")) {
            ps.setString(1, clusterId);
            ps.setString(2, version);
            ps.setString(3, horizon);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Stored(rs.getLong(1), rs.getString(2), rs.getLong(3)));
                }
            }
        }
        return out;
    }

    /** The state of a stored checkpoint, or null when it has been deleted meanwhile. */
    public byte[] state(String clusterId, String version, Stored stored) throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT state FROM ledger_checkpoint "
                        + "WHERE cluster_id = ? AND settings_version = ? AND event_time_ms = ?")) {
            ps.setString(1, clusterId);
            ps.setString(2, version);
            ps.setLong(3, stored.eventTimeMs());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getBytes(1) : null;
            }
        }
    }

    /**
     * Stores a checkpoint (unless one of the same cluster, version and event time exists), labelled with the period
     * open in it, then thins the cluster's checkpoints: under {@code version} it keeps the {@code keep} newest and,
     * of each of the {@code periods} latest periods, the newest checkpoint labelled with it (for an ended period, its
     * state at the period's end when that was stored); none under another version. Pinned ones are never thinned.
     * Nothing on a replica that is not the cluster's writer.
     */
    public void save(String clusterId, String version, Stored stored, String openPeriod, byte[] state, int keep,
            int periods) throws SQLException {
        if (!writer.writes(clusterId)) {
            return;
        }
        Counter.builder(STORED).description("checkpoints this replica stored").tag(MetricNames.CLUSTER, clusterId)
                .register(registry).increment();
        try (Connection c = dataSource.getConnection()) {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO ledger_checkpoint (cluster_id, "
                    + "settings_version, event_time_ms, fact_horizon, facts, state, open_period) "
                    + "VALUES (?, ?, ?, ?::xid8, ?, ?, ?) ON CONFLICT DO NOTHING")) {
                ps.setString(1, clusterId);
                ps.setString(2, version);
                ps.setLong(3, stored.eventTimeMs());
                ps.setString(4, stored.horizon());
                ps.setLong(5, stored.facts());
                ps.setBytes(6, state);
                ps.setString(7, openPeriod);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM ledger_checkpoint WHERE cluster_id = ? "
                    + "AND NOT pinned AND (settings_version <> ? OR (event_time_ms < (SELECT min(event_time_ms) "
                    + "FROM (SELECT event_time_ms FROM ledger_checkpoint WHERE cluster_id = ? "
                    + "AND settings_version = ? ORDER BY event_time_ms DESC LIMIT ?) newest) "
                    + "AND event_time_ms NOT IN (SELECT max(event_time_ms) FROM ledger_checkpoint "
                    + "WHERE cluster_id = ? AND settings_version = ? AND open_period IS NOT NULL "
                    + "GROUP BY open_period ORDER BY max(event_time_ms) DESC LIMIT ?)))")) {
                ps.setString(1, clusterId);
                ps.setString(2, version);
                ps.setString(3, clusterId);
                ps.setString(4, version);
                ps.setInt(5, keep);
                ps.setString(6, clusterId);
                ps.setString(7, version);
                ps.setInt(8, periods);
                ps.executeUpdate();
            }
        }
    }

    /**
     * Deletes a checkpoint that can no longer be used (it lacks a fact stored since, or cannot be read), unless it is
     * pinned.
     */
    public void delete(String clusterId, String version, Stored stored) throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("DELETE FROM ledger_checkpoint "
                        + "WHERE cluster_id = ? AND settings_version = ? AND event_time_ms = ? AND NOT pinned")) {
            ps.setString(1, clusterId);
            ps.setString(2, version);
            ps.setLong(3, stored.eventTimeMs());
            ps.executeUpdate();
        }
    }

    /**
     * Pins the checkpoint of {@code clusterId} under {@code version} at {@code eventTimeMs} and unpins the cluster's
     * older pins, on the caller's connection and transaction (retention pins with the floor it sets); false when that
     * checkpoint is gone.
     */
    public static boolean pin(Connection c, String clusterId, String version, long eventTimeMs) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE ledger_checkpoint SET pinned = TRUE "
                + "WHERE cluster_id = ? AND settings_version = ? AND event_time_ms = ?")) {
            ps.setString(1, clusterId);
            ps.setString(2, version);
            ps.setLong(3, eventTimeMs);
            if (ps.executeUpdate() == 0) {
                return false;
            }
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE ledger_checkpoint SET pinned = FALSE "
                + "WHERE cluster_id = ? AND pinned AND NOT (settings_version = ? AND event_time_ms = ?)")) {
            ps.setString(1, clusterId);
            ps.setString(2, version);
            ps.setLong(3, eventTimeMs);
            ps.executeUpdate();
        }
        return true;
    }
}
