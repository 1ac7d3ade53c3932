package io.fairledger.ingest;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;

/**
 * The owner of {@code waiting_start}: the Mesos starts without resources that wait for their task's resources
 * ({@link WaitingStarts}), one row per waiting record of a consumer group's partition, with the record itself (key,
 * value, headers and timestamp) for the dead letter of one that expires. A batch's {@link Changes} are written in the
 * transaction that stores its facts and moves its offsets ({@link BatchStore}); on every positioning of a partition the
 * consumer reads them back ({@link #read}).
 */
final class WaitingStartTable {

    /** A waiting start and the record it came from. */
    record Row(ConsumerRecord<byte[], byte[]> record, Normaliser.Unresourced start) {
    }

    /** Where a record is. */
    record Position(TopicPartition partition, long offset) {
        static Position of(ConsumerRecord<?, ?> record) {
            return new Position(new TopicPartition(record.topic(), record.partition()), record.offset());
        }
    }

    /** What one batch changed: the starts it holds, and those it released or expired that earlier batches held. */
    static final class Changes {
        private final Map<Position, Row> held = new LinkedHashMap<>();
        private final List<Position> gone = new ArrayList<>();

        /** {@code start} of {@code record} waits. */
        void held(ConsumerRecord<byte[], byte[]> record, Normaliser.Unresourced start) {
            held.put(Position.of(record), new Row(record, start));
        }

        /** The start of {@code record} was released or expired: one held by this very batch is never written. */
        void gone(ConsumerRecord<byte[], byte[]> record) {
            Position position = Position.of(record);
            if (held.remove(position) == null) {
                gone.add(position);
            }
        }

        /** The starts this batch holds, to be inserted. */
        Collection<Row> held() {
            return held.values();
        }

        /** The records whose starts, held by earlier batches, this batch released or expired: rows to delete. */
        List<Position> gone() {
            return gone;
        }

        boolean isEmpty() {
            return held.isEmpty() && gone.isEmpty();
        }
    }

    private static final String INSERT = "INSERT INTO waiting_start (group_id, topic, partition, record_offset, "
            + "cluster_id, task_id, state, event_time_ms, record_timestamp, record_key, record_value, record_headers) "
            + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING";
    private static final String DELETE = "DELETE FROM waiting_start WHERE group_id = ? AND topic = ? AND partition = ? "
            + "AND record_offset = ?";
    private static final String SELECT = "SELECT record_offset, cluster_id, task_id, state, event_time_ms, "
            + "record_timestamp, record_key, record_value, record_headers FROM waiting_start WHERE group_id = ? "
            + "AND topic = ? AND partition = ? ORDER BY record_offset";

    private WaitingStartTable() {
    }

    /** Writes a batch's changes in the caller's transaction. */
    static void write(Connection c, String groupId, Changes changes) throws SQLException {
        if (changes.isEmpty()) {
            return;
        }
        try (PreparedStatement delete = c.prepareStatement(DELETE)) {
            for (Position p : changes.gone) {
                delete.setString(1, groupId);
                delete.setString(2, p.partition().topic());
                delete.setInt(3, p.partition().partition());
                delete.setLong(4, p.offset());
                delete.addBatch();
            }
            delete.executeBatch();
        }
        try (PreparedStatement insert = c.prepareStatement(INSERT)) {
            for (Row row : changes.held.values()) {
                ConsumerRecord<byte[], byte[]> r = row.record();
                insert.setString(1, groupId);
                insert.setString(2, r.topic());
                insert.setInt(3, r.partition());
                insert.setLong(4, r.offset());
                insert.setString(5, row.start().clusterId());
                insert.setString(6, row.start().taskId());
                insert.setString(7, row.start().state());
                insert.setLong(8, row.start().at());
                insert.setLong(9, r.timestamp());
                insert.setBytes(10, r.key());
                insert.setBytes(11, r.value());
                insert.setBytes(12, encode(r.headers()));
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    /** The waiting starts of {@code groupId}'s {@code partitions}, each partition's in record order. */
    static List<Row> read(Connection c, String groupId, Collection<TopicPartition> partitions) throws SQLException {
        List<Row> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(SELECT)) {
            for (TopicPartition tp : partitions) {
                ps.setString(1, groupId);
                ps.setString(2, tp.topic());
                ps.setInt(3, tp.partition());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        byte[] key = rs.getBytes(7);
                        byte[] value = rs.getBytes(8);
                        ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>(tp.topic(), tp.partition(),
                                rs.getLong(1), rs.getLong(6), TimestampType.CREATE_TIME,
                                key == null ? -1 : key.length, value == null ? -1 : value.length, key, value,
                                decode(rs.getBytes(9)), Optional.empty());
                        rows.add(new Row(record, new Normaliser.Unresourced(rs.getString(2), rs.getString(3),
                                rs.getString(4), rs.getLong(5))));
                    }
                }
            }
        }
        return rows;
    }

    /** The headers as their count, then each key (its length and UTF-8) and value (its length, -1 for none, and bytes). */
    static byte[] encode(Iterable<Header> headers) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            List<Header> all = new ArrayList<>();
            headers.forEach(all::add);
            out.writeInt(all.size());
            for (Header h : all) {
                byte[] key = h.key().getBytes(StandardCharsets.UTF_8);
                out.writeInt(key.length);
                out.write(key);
                out.writeInt(h.value() == null ? -1 : h.value().length);
                if (h.value() != null) {
                    out.write(h.value());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static RecordHeaders decode(byte[] encoded) {
        RecordHeaders headers = new RecordHeaders();
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded))) {
            int count = in.readInt();
            for (int i = 0; i < count; i++) {
                String key = new String(in.readNBytes(in.readInt()), StandardCharsets.UTF_8);
                int length = in.readInt();
                headers.add(key, length < 0 ? null : in.readNBytes(length));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return headers;
    }
}
