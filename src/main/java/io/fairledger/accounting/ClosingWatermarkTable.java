package io.fairledger.accounting;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import javax.sql.DataSource;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The server's {@link RecordedWatermarks}: table {@code closing_watermark} (V65), one row per cluster, the source
 * watermarks at the latest position its periods were closed at; {@code sources} holds, by source name, its watermark
 * and last arrival as a two-number array. A database error is an {@link IllegalStateException} naming the cluster.
 */
final class ClosingWatermarkTable implements RecordedWatermarks {

    private static final TypeReference<Map<String, long[]>> SOURCES = new TypeReference<>() {
    };

    private final DataSource dataSource;
    private final ObjectMapper json;
    private final String clusterId;

    ClosingWatermarkTable(DataSource dataSource, ObjectMapper json, String clusterId) {
        this.dataSource = dataSource;
        this.json = json;
        this.clusterId = clusterId;
    }

    @Override
    public Optional<SourceWatermarks> at(long position) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT idle_timeout_ms, watermark_ms, sources::text "
                        + "FROM closing_watermark WHERE cluster_id = ? AND fact_position = ?")) {
            ps.setString(1, clusterId);
            ps.setLong(2, position);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                Map<String, SourceWatermarks.Source> sources = new TreeMap<>();
                json.readValue(rs.getString(3), SOURCES)
                        .forEach((name, s) -> sources.put(name, new SourceWatermarks.Source(s[0], s[1])));
                return Optional.of(new SourceWatermarks(rs.getLong(1), sources, rs.getLong(2)));
            }
        } catch (SQLException | JsonProcessingException e) {
            throw unreadable(e);
        }
    }

    /** Keeps the later position when two closes record at once (a configuration change while the writer closes). */
    @Override
    public void record(long position, SourceWatermarks watermarks) {
        Map<String, long[]> sources = new TreeMap<>();
        watermarks.sources().forEach((name, s) -> sources.put(name, new long[]{s.watermark(), s.lastArrival()}));
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("INSERT INTO closing_watermark (cluster_id, fact_position, "
                        + "idle_timeout_ms, watermark_ms, sources) VALUES (?, ?, ?, ?, ?::jsonb) "
                        + "ON CONFLICT (cluster_id) DO UPDATE SET fact_position = EXCLUDED.fact_position, "
                        + "idle_timeout_ms = EXCLUDED.idle_timeout_ms, watermark_ms = EXCLUDED.watermark_ms, "
                        + "sources = EXCLUDED.sources WHERE closing_watermark.fact_position <= EXCLUDED.fact_position")) {
            ps.setString(1, clusterId);
            ps.setLong(2, position);
            ps.setLong(3, watermarks.idleMs());
            ps.setLong(4, watermarks.closing());
            ps.setString(5, json.writeValueAsString(sources));
            ps.executeUpdate();
        } catch (SQLException | JsonProcessingException e) {
            throw unreadable(e);
        }
    }

    private IllegalStateException unreadable(Exception e) {
        return new IllegalStateException("cluster " + clusterId + ": closing watermarks: " + e.getMessage(), e);
    }
}
