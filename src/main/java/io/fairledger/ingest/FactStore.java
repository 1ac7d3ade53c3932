package io.fairledger.ingest;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.sql.DataSource;

import org.apache.kafka.common.TopicPartition;
import org.postgresql.PGConnection;

import io.fairledger.accounting.FactCodec;
import io.fairledger.accounting.LedgerFact;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The ledger's facts and the consumer's offsets in PostgreSQL. A batch of facts and the offsets that follow it are
 * committed in one transaction, so after any crash the stored facts are exactly those of the records before the stored
 * offsets: nothing lost, nothing counted twice. Plain JDBC, because the hot path is the batch's facts streamed with
 * {@code COPY} (columns with a default, such as {@code ingested_at}, are filled by PostgreSQL).
 * <p>
 * A batch is first copied straight into {@code ledger_fact} under a savepoint: when none of its keys is stored yet, the
 * usual case, that is the whole insert. When one is (a redelivered event), the primary key rejects the copy, the
 * savepoint is rolled back and the batch goes the safe way: {@code COPY} into a session-local staging table, then one
 * {@code INSERT ... SELECT ... ON CONFLICT DO NOTHING}, which costs PostgreSQL about twice as much per row
 * (docs/benchmarks.md, ingestion, fourth round).
 */
@ApplicationScoped
public class FactStore {

    /** A fact with where it came from. */
    public record Stored(LedgerFact fact, String eventId, String topic, int partition, long offset) {
    }

    /** A job or workflow record kept for the admission service. */
    public record AdmissionRecord(String clusterId, String eventId, long eventTimeMs, String kind, String contentType,
            byte[] payload) {
    }

    private static final String FACT_COLUMNS = "cluster_id, dedupe_key, event_id, event_time_ms, kind, fact, "
            + "source_topic, source_partition, source_offset";
    /** Per session; emptied by every commit, so a pooled connection never carries rows from one batch to the next. */
    private static final String CREATE_STAGING = "CREATE TEMP TABLE IF NOT EXISTS fact_batch (cluster_id TEXT, "
            + "dedupe_key TEXT, event_id TEXT, event_time_ms BIGINT, kind TEXT, fact TEXT, source_topic TEXT, "
            + "source_partition INT, source_offset BIGINT) ON COMMIT DELETE ROWS";
    private static final String COPY_FACTS = "COPY ledger_fact (" + FACT_COLUMNS + ") FROM STDIN";
    private static final String COPY_STAGING = "COPY fact_batch (" + FACT_COLUMNS + ") FROM STDIN";
    /** The SQLSTATE of a key already stored. */
    private static final String UNIQUE_VIOLATION = "23505";
    private static final String MOVE_STAGING = "INSERT INTO ledger_fact (" + FACT_COLUMNS + ") SELECT "
            + FACT_COLUMNS + " FROM fact_batch ON CONFLICT DO NOTHING";
    private static final String INSERT_ADMISSION = "INSERT INTO admission_event (cluster_id, event_id, event_time_ms, "
            + "kind, content_type, payload) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING";
    private static final String UPSERT_OFFSET = "INSERT INTO consumer_offset (group_id, topic, partition, next_offset) "
            + "VALUES (?, ?, ?, ?) ON CONFLICT (group_id, topic, partition) DO UPDATE SET next_offset = "
            + "EXCLUDED.next_offset";

    @Inject
    DataSource dataSource;

    /** Stores the facts and records and moves the offsets, atomically; returns how many facts were new. */
    public int commit(String groupId, List<Stored> facts, List<AdmissionRecord> admissions,
            Map<TopicPartition, Long> nextOffsets) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                int inserted = insertFacts(c, facts);
                insertAdmissions(c, admissions);
                try (PreparedStatement ps = c.prepareStatement(UPSERT_OFFSET)) {
                    for (Map.Entry<TopicPartition, Long> e : nextOffsets.entrySet()) {
                        ps.setString(1, groupId);
                        ps.setString(2, e.getKey().topic());
                        ps.setInt(3, e.getKey().partition());
                        ps.setLong(4, e.getValue());
                        ps.addBatch();
                    }
                    ps.executeBatch();
                }
                c.commit();
                return inserted;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
    }

    /**
     * Drops the batch's own duplicates (first one wins, as a row-by-row insert would), then copies the rest straight
     * into {@code ledger_fact}, or, when a key is already stored, through the staging table, skipping stored keys.
     */
    private static int insertFacts(Connection c, List<Stored> facts) throws SQLException {
        if (facts.isEmpty()) {
            return 0;
        }
        Map<String, Stored> unique = new LinkedHashMap<>(facts.size() * 2);
        for (Stored s : facts) {
            unique.putIfAbsent(s.fact().clusterId() + '\n' + s.fact().dedupeKey(), s);
        }
        CopyText rows = new CopyText(unique.size() * 256);
        for (Stored s : unique.values()) {
            rows.field(s.fact().clusterId()).field(s.fact().dedupeKey()).field(s.eventId()).field(s.fact().at())
                    .field(FactCodec.kind(s.fact())).field(FactCodec.encode(s.fact())).field(s.topic())
                    .field(s.partition()).last(s.offset());
        }
        byte[] text = rows.bytes();
        Savepoint fresh = c.setSavepoint();
        try {
            long copied = copy(c, COPY_FACTS, text);
            c.releaseSavepoint(fresh);
            return Math.toIntExact(copied);
        } catch (SQLException e) {
            if (!UNIQUE_VIOLATION.equals(e.getSQLState())) {
                throw e;
            }
            c.rollback(fresh);
        }
        try (Statement st = c.createStatement()) {
            st.execute(CREATE_STAGING);
        }
        copy(c, COPY_STAGING, text);
        try (Statement st = c.createStatement()) {
            return st.executeUpdate(MOVE_STAGING);
        }
    }

    private static long copy(Connection c, String sql, byte[] text) throws SQLException {
        try {
            return c.unwrap(PGConnection.class).getCopyAPI().copyIn(sql, new ByteArrayInputStream(text));
        } catch (IOException e) {
            throw new SQLException("cannot stream facts to PostgreSQL: " + e.getMessage(), e);
        }
    }

    /** Rows in PostgreSQL's COPY text format: tab-separated, newline-terminated, backslash escapes. */
    private static final class CopyText {
        private final StringBuilder text;

        CopyText(int capacity) {
            text = new StringBuilder(capacity);
        }

        CopyText field(String value) {
            escape(value);
            text.append('\t');
            return this;
        }

        CopyText field(long value) {
            text.append(value).append('\t');
            return this;
        }

        void last(long value) {
            text.append(value).append('\n');
        }

        private void escape(String value) {
            if (plain(value)) {
                text.append(value);
                return;
            }
            for (int i = 0; i < value.length(); i++) {
                char ch = value.charAt(i);
                switch (ch) {
                    case '\\' -> text.append("\\\\");
                    case '\t' -> text.append("\\t");
                    case '\n' -> text.append("\\n");
                    case '\r' -> text.append("\\r");
                    default -> text.append(ch);
                }
            }
        }

        /** Whether {@code value} has nothing to escape: the common case, appended whole ({@code indexOf} is fast). */
        private static boolean plain(String value) {
            return value.indexOf('\\') < 0 && value.indexOf('\t') < 0 && value.indexOf('\n') < 0
                    && value.indexOf('\r') < 0;
        }

        byte[] bytes() {
            return text.toString().getBytes(StandardCharsets.UTF_8);
        }
    }

    private static void insertAdmissions(Connection c, List<AdmissionRecord> admissions) throws SQLException {
        if (admissions.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement(INSERT_ADMISSION)) {
            for (AdmissionRecord a : admissions) {
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

    /** The stored next offset of each partition that has one. */
    public Map<TopicPartition, Long> offsets(String groupId, Collection<TopicPartition> partitions)
            throws SQLException {
        Map<TopicPartition, Long> out = new HashMap<>();
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "SELECT next_offset FROM consumer_offset WHERE group_id = ? AND topic = ? AND partition = ?")) {
            for (TopicPartition tp : partitions) {
                ps.setString(1, groupId);
                ps.setString(2, tp.topic());
                ps.setInt(3, tp.partition());
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        out.put(tp, rs.getLong(1));
                    }
                }
            }
        }
        return out;
    }

    /** Every fact of a cluster, in event-time order. */
    public List<LedgerFact> facts(String clusterId) throws SQLException {
        List<LedgerFact> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "SELECT kind, event_time_ms, dedupe_key, fact FROM ledger_fact WHERE cluster_id = ? "
                                + "ORDER BY event_time_ms, dedupe_key")) {
            ps.setString(1, clusterId);
            ps.setFetchSize(10_000);
            boolean own = c.getAutoCommit(); // a cursor needs a transaction: the caller's, or one of our own
            c.setAutoCommit(false);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(FactCodec.decode(rs.getString(1), clusterId, rs.getLong(2), rs.getString(3),
                            rs.getString(4)));
                }
            }
            if (own) {
                c.commit();
            }
        }
        return out;
    }

    /** The ids of every registered cluster. */
    public Set<String> clusterIds() throws SQLException {
        Set<String> out = new HashSet<>();
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT id FROM cluster");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
