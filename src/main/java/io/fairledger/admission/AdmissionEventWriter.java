package io.fairledger.admission;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.fairledger.ingest.AdmissionRecord;
import io.fairledger.ingest.AdmissionRecordWriter;

/**
 * The one writer of {@code admission_event}: the consumer's batch commit calls it inside its transaction, so a job or
 * workflow record is stored exactly when the offsets after it are. A redelivered record (same cluster and event id)
 * is skipped. {@link AdmissionLog} reads the table back.
 */
@ApplicationScoped
public class AdmissionEventWriter implements AdmissionRecordWriter {

    private static final String INSERT = "INSERT INTO admission_event (cluster_id, event_id, event_time_ms, kind, "
            + "content_type, payload) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING";

    @Override
    public void insert(Connection connection, List<AdmissionRecord> records) throws SQLException {
        if (records.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = connection.prepareStatement(INSERT)) {
            for (AdmissionRecord a : records) {
                ps.setString(1, a.clusterId());
                ps.setString(2, a.eventId());
                ps.setLong(3, a.eventTimeMs());
                ps.setString(4, a.kind());
                ps.setString(5, a.contentType());
                ps.setBytes(6, a.payload());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }
}
