package io.fairledger.admission;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.sql.DataSource;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import com.fasterxml.jackson.core.JsonProcessingException;

import io.fairledger.tenancy.TenancyService;

/**
 * The admission log of each cluster: the rows of {@code admission_event} in {@code position} order (migration V20).
 * Positions are assigned once, under the transaction-scoped PostgreSQL advisory lock of the cluster, as
 * {@code max + 1, max + 2, ...}: they have no gaps and become visible in order (the lock is held until commit), so a
 * reader that asks for the rows after the last one it applied never misses one. Rows the Kafka consumer stores come
 * without a position and are sequenced (by event time, then arrival, then event id) by whichever server polls first;
 * rows the HTTP API writes are sequenced as they are inserted. The first row of every log is a
 * {@link LogEntry#POLICY_CHANGE}.
 */
@ApplicationScoped
public class AdmissionLog {

    private static final String LOCK = "SELECT pg_advisory_xact_lock(hashtext(?))";
    private static final String LAST = "SELECT coalesce(max(position), 0) FROM admission_event WHERE cluster_id = ?";
    private static final String INSERT = "INSERT INTO admission_event (cluster_id, event_id, event_time_ms, kind, "
            + "content_type, payload, position) VALUES (?, ?, ?, ?, 'application/json', ?, ?) ON CONFLICT DO NOTHING";
    private static final String SEQUENCE = "UPDATE admission_event a SET position = ? + s.rn FROM (SELECT event_id, "
            + "row_number() OVER (ORDER BY event_time_ms, ingested_at, event_id) AS rn FROM admission_event "
            + "WHERE cluster_id = ? AND position IS NULL) s WHERE a.cluster_id = ? AND a.event_id = s.event_id "
            + "RETURNING a.position";

    /** Event id of the policy row that opens every log. */
    public static final String INITIAL_POLICY_ID = "policy:initial";

    @Inject
    DataSource dataSource;

    @Inject
    TenancyService tenancy;

    /**
     * Appends a row written by this server (after sequencing the rows waiting before it) and returns its position, or
     * -1 when the cluster already has a row with {@code eventId}.
     *
     * @param initial
     *            the policy row to write first when the log is empty; null when the log is known not to be empty
     * @param sequenced
     *            receives, before the commit makes them visible, the positions this call assigns (the new row's too)
     */
    @Transactional
    public long append(String cluster, String eventId, long eventTimeMs, String kind, Object payload,
            LogEntry.PolicyChange initial, Collection<Long> sequenced) {
        try (Connection c = dataSource.getConnection()) {
            long last = lockAndSequence(c, cluster, initial, eventTimeMs, sequenced);
            if (last < 0) {
                throw new IllegalStateException(
                        "the admission log of " + cluster + " is empty and no policy was given");
            }
            if (insert(c, cluster, eventId, eventTimeMs, kind, payload, last + 1) == 0) {
                return -1;
            }
            sequenced.add(last + 1);
            return last + 1;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot append to the admission log of " + cluster, e);
        }
    }

    /**
     * Gives the rows stored without a position their positions, added to {@code sequenced} before the commit. With an empty log and no
     * {@code initial} policy nothing is sequenced.
     */
    @Transactional
    public void sequencePending(String cluster, LogEntry.PolicyChange initial, long nowMs,
            Collection<Long> sequenced) {
        try (Connection c = dataSource.getConnection()) {
            lockAndSequence(c, cluster, initial, nowMs, sequenced);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot sequence the admission log of " + cluster, e);
        }
    }

    /** Locks the cluster's log, writes the initial policy if the log is empty, sequences waiting rows; -1 if empty. */
    private long lockAndSequence(Connection c, String cluster, LogEntry.PolicyChange initial, long nowMs,
            Collection<Long> sequenced) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(LOCK)) {
            ps.setString(1, "fairledger.admission/" + cluster);
            ps.execute();
        }
        long last;
        try (PreparedStatement ps = c.prepareStatement(LAST)) {
            ps.setString(1, cluster);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                last = rs.getLong(1);
            }
        }
        if (last == 0) {
            if (initial == null) {
                return -1;
            }
            insert(c, cluster, INITIAL_POLICY_ID, nowMs, LogEntry.POLICY_CHANGE, initial, 1);
            sequenced.add(1L);
            last = 1;
        }
        try (PreparedStatement ps = c.prepareStatement(SEQUENCE)) {
            ps.setLong(1, last);
            ps.setString(2, cluster);
            ps.setString(3, cluster);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long p = rs.getLong(1);
                    sequenced.add(p);
                    last = Math.max(last, p);
                }
            }
        }
        return last;
    }

    private static int insert(Connection c, String cluster, String eventId, long eventTimeMs, String kind,
            Object payload, long position) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(INSERT)) {
            ps.setString(1, cluster);
            ps.setString(2, eventId);
            ps.setLong(3, eventTimeMs);
            ps.setString(4, kind);
            ps.setBytes(5, AdmissionRows.JSON.writeValueAsBytes(payload));
            ps.setLong(6, position);
            return ps.executeUpdate();
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot encode a " + kind + " row", e);
        }
    }

    /** Up to {@code limit} rows of the cluster after {@code position}, in order. */
    public List<LogEntry> after(String cluster, long position, int limit) {
        List<LogEntry> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT position, event_id, event_time_ms, kind, "
                        + "content_type, payload FROM admission_event WHERE cluster_id = ? AND position > ? "
                        + "ORDER BY position LIMIT ?")) {
            ps.setString(1, cluster);
            ps.setLong(2, position);
            ps.setInt(3, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new LogEntry(rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getString(4),
                            rs.getString(5), rs.getBytes(6)));
                }
            }
            return out;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the admission log of " + cluster, e);
        }
    }

    /** The last position of each cluster that has a log, and the clusters with rows waiting to be sequenced. */
    public record Heads(Map<String, Long> last, Set<String> waiting) {
    }

    /** Where every cluster's log stands. */
    public Heads heads() {
        Map<String, Long> last = new HashMap<>();
        Set<String> waiting = new HashSet<>();
        try (Connection c = dataSource.getConnection()) {
            List<String> clusters = new ArrayList<>(tenancy.clusterIds());
            try (PreparedStatement ps = c.prepareStatement(LAST)) {
                for (String cluster : clusters) {
                    ps.setString(1, cluster);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        if (rs.getLong(1) > 0) {
                            last.put(cluster, rs.getLong(1));
                        }
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT DISTINCT cluster_id FROM admission_event WHERE position IS NULL");
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    waiting.add(rs.getString(1));
                }
            }
            return new Heads(last, waiting);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the admission logs", e);
        }
    }
}
