package io.fairledger.facts;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import javax.sql.DataSource;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The one owner of table {@code retention_floor} (V60): per cluster, the instant from which its facts are kept whole.
 * Retention sets it before it drops a month holding facts of the cluster; before it, facts may be gone and the
 * cluster's ledger there is the pinned checkpoint at the floor minus one millisecond, under the settings version named.
 */
@ApplicationScoped
public class RetentionFloors {

    /**
     * A cluster's floor.
     *
     * @param replayableFrom  the oldest instant still replayable: facts before it may have been dropped
     * @param settingsVersion the settings version of the pinned checkpoint at {@code replayableFrom - 1 ms}
     */
    public record Floor(Instant replayableFrom, String settingsVersion) {

        /** The event time of the pinned checkpoint: every fact up to it is in the checkpoint. */
        public long checkpointMs() {
            return replayableFrom.toEpochMilli() - 1;
        }
    }

    @Inject
    DataSource dataSource;

    /** The floor of {@code clusterId}, empty when retention has dropped none of its facts. */
    public Optional<Floor> of(String clusterId) {
        try (Connection c = dataSource.getConnection()) {
            return of(c, clusterId);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the retention floor of " + clusterId, e);
        }
    }

    /** Every cluster's floor instant, of those that have one. */
    public Map<String, Instant> all() {
        Map<String, Instant> out = new HashMap<>();
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT cluster_id, replayable_from_ms FROM retention_floor");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.put(rs.getString(1), Instant.ofEpochMilli(rs.getLong(2)));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the retention floors", e);
        }
        return out;
    }

    /** {@link #of(String)} on the caller's connection. */
    public static Optional<Floor> of(Connection c, String clusterId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT replayable_from_ms, settings_version "
                + "FROM retention_floor WHERE cluster_id = ?")) {
            ps.setString(1, clusterId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next()
                        ? Optional.of(new Floor(Instant.ofEpochMilli(rs.getLong(1)), rs.getString(2)))
                        : Optional.empty();
            }
        }
    }

    /** Sets the floor of {@code clusterId} on the caller's connection and transaction. */
    public static void set(Connection c, String clusterId, Floor floor) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO retention_floor (cluster_id, replayable_from_ms, "
                + "settings_version) VALUES (?, ?, ?) ON CONFLICT (cluster_id) DO UPDATE SET replayable_from_ms = "
                + "EXCLUDED.replayable_from_ms, settings_version = EXCLUDED.settings_version, set_at = now()")) {
            ps.setString(1, clusterId);
            ps.setLong(2, floor.replayableFrom().toEpochMilli());
            ps.setString(3, floor.settingsVersion());
            ps.executeUpdate();
        }
    }
}
