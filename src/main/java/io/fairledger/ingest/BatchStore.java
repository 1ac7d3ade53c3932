package io.fairledger.ingest;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.apache.kafka.common.TopicPartition;

import io.fairledger.facts.FactWriter;
import io.fairledger.facts.FreshFacts;
import io.fairledger.facts.LedgerFact;
import io.fairledger.facts.SourcedFact;

/**
 * One consumer batch in PostgreSQL: its facts ({@link FactWriter}, owner of {@code ledger_fact}), its admission records
 * (the admission package's {@link AdmissionRecordWriter}, owner of {@code admission_event}), what it changed of the
 * Mesos starts that wait for their resources ({@link WaitingStartTable}) and the offsets that follow it
 * ({@code consumer_offset}, owned here), committed in one transaction. So after any crash the stored facts and waiting
 * starts are exactly those of the records before the stored offsets: nothing lost, nothing counted twice. The facts a
 * transaction added are handed to this replica's live ledgers once it is committed ({@link FreshFacts}).
 */
@ApplicationScoped
public class BatchStore {

    private static final String UPSERT_OFFSET = "INSERT INTO consumer_offset (group_id, topic, partition, next_offset) "
            + "VALUES (?, ?, ?, ?) ON CONFLICT (group_id, topic, partition) DO UPDATE SET next_offset = "
            + "EXCLUDED.next_offset";

    @Inject
    DataSource dataSource;

    @Inject
    AdmissionRecordWriter admissionRecords;

    @Inject
    FreshFacts fresh;

    /** Stores the facts and records and moves the offsets, atomically; returns how many facts were new. */
    public int commit(String groupId, List<SourcedFact> facts, List<AdmissionRecord> admissions,
            Map<TopicPartition, Long> nextOffsets) throws SQLException {
        return commit(groupId, facts, admissions, new WaitingStartTable.Changes(), nextOffsets);
    }

    /**
     * Stores the facts and records, the changes of the waiting starts and moves the offsets, atomically; returns how
     * many facts were new.
     */
    int commit(String groupId, List<SourcedFact> facts, List<AdmissionRecord> admissions,
            WaitingStartTable.Changes waiting, Map<TopicPartition, Long> nextOffsets) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                List<LedgerFact> stored = new ArrayList<>(facts.size());
                int inserted = FactWriter.insert(c, facts, stored::add);
                long transaction = stored.isEmpty() ? 0 : transactionId(c);
                admissionRecords.insert(c, admissions);
                WaitingStartTable.write(c, groupId, waiting);
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
                fresh.stored(transaction, stored);
                return inserted;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
    }

    /** The id of {@code c}'s transaction, as its facts' {@code tx} column holds it. */
    private static long transactionId(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_current_xact_id()::text");
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return Long.parseLong(rs.getString(1));
        }
    }

    /**
     * Stores the facts and records in a transaction that is rolled back, whatever happens: throws what the database
     * says about them ({@link PoisonRecords} bisects a refused batch with it).
     */
    public void trial(List<SourcedFact> facts, List<AdmissionRecord> admissions) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                FactWriter.insert(c, facts);
                admissionRecords.insert(c, admissions);
            } finally {
                c.rollback();
            }
        }
    }

    /** The waiting starts of {@code groupId}'s {@code partitions} ({@link WaitingStartTable}). */
    List<WaitingStartTable.Row> waitingStarts(String groupId, Collection<TopicPartition> partitions)
            throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return WaitingStartTable.read(c, groupId, partitions);
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
}
