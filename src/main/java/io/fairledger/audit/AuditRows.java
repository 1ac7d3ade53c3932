package io.fairledger.audit;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;

/**
 * Audit entries written by the server itself (no caller: a scheduled job) on the caller's JDBC connection and
 * transaction, so that a change and its entry are committed together; the same table as {@link AuditTrail}.
 */
public final class AuditRows {

    private AuditRows() {
    }

    /**
     * Records a change made by {@code actor}; {@code before} and {@code after} are JSON texts (null: none).
     */
    public static void record(Connection c, String actor, String clusterId, String subject, String before,
            String after, Instant effectiveFrom) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO audit_entry (actor, cluster_id, subject, "
                + "before_value, after_value, effective_from) VALUES (?, ?, ?, ?::jsonb, ?::jsonb, ?)")) {
            ps.setString(1, actor);
            ps.setString(2, clusterId);
            ps.setString(3, subject);
            ps.setString(4, before);
            ps.setString(5, after);
            ps.setTimestamp(6, Timestamp.from(effectiveFrom));
            ps.executeUpdate();
        }
    }

    /** The {@code after} value (JSON text) of the newest entry about {@code subject}, or null when there is none. */
    public static String newestAfter(Connection c, String subject) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT after_value::text FROM audit_entry WHERE subject = ? "
                + "ORDER BY id DESC LIMIT 1")) {
            ps.setString(1, subject);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }
}
