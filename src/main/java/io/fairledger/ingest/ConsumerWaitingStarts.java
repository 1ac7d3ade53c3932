package io.fairledger.ingest;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

import io.fairledger.facts.LedgerFact;

/**
 * The consumer's {@link WaitingStarts}, kept in {@code waiting_start} ({@link WaitingStartTable}) as well as in memory:
 * what each batch holds, releases and expires is collected as the batch's {@link WaitingStartTable.Changes}, written
 * with its facts and offsets; whenever partitions are positioned at their stored offsets (assignment, or a batch read
 * again) their waiting starts are replaced by the stored ones, so memory always matches the records before the stored
 * offsets; revoked partitions' starts are dropped (their next owner reads them). Consumer thread only, but for
 * {@link #size}.
 */
final class ConsumerWaitingStarts {

    /** Reads the stored waiting starts of some partitions. */
    @FunctionalInterface
    interface Stored {
        List<WaitingStartTable.Row> read(Collection<TopicPartition> partitions) throws SQLException;
    }

    private final Stored stored;
    private final Function<String, Duration> lateness;
    /** Each cluster's allowed lateness as read in this batch: read at most once a batch, so a change applies next. */
    private final Map<String, Duration> latenessThisBatch = new HashMap<>();
    private final WaitingStarts<ConsumerRecord<byte[], byte[]>> waiting;
    private WaitingStartTable.Changes changes = new WaitingStartTable.Changes();
    private volatile int size;

    /**
     * @param lateness each cluster's allowed lateness, asked at most once a batch per cluster
     * @param stored   the stored waiting starts
     */
    ConsumerWaitingStarts(Function<String, Duration> lateness, Stored stored) {
        this.stored = stored;
        this.lateness = lateness;
        this.waiting = new WaitingStarts<>(
                clusterId -> latenessThisBatch.computeIfAbsent(clusterId, this.lateness),
                record -> changes.gone(record));
    }

    /** {@code start}, of {@code record}, waits; or is refused ({@link WaitingStarts#hold}): its dead letter. */
    Optional<WaitingStarts.Expired<ConsumerRecord<byte[], byte[]>>> hold(Normaliser.Unresourced start,
            ConsumerRecord<byte[], byte[]> record) {
        Optional<WaitingStarts.Expired<ConsumerRecord<byte[], byte[]>>> refused = waiting.hold(start, record);
        if (refused.isEmpty()) {
            changes.held(record, start);
        }
        return refused;
    }

    /** {@link WaitingStarts#release}. */
    List<LedgerFact> release(List<LedgerFact> facts) {
        return waiting.release(facts);
    }

    /** {@link WaitingStarts#advance}: the expired starts, each to be dead-lettered by the batch being decoded. */
    List<WaitingStarts.Expired<ConsumerRecord<byte[], byte[]>>> advance(String clusterId, long eventTime) {
        List<WaitingStarts.Expired<ConsumerRecord<byte[], byte[]>>> expired = waiting.advance(clusterId, eventTime);
        expired.forEach(e -> changes.gone(e.source()));
        return expired;
    }

    /** The changes of the batch decoded since the last call, to be written with it. */
    WaitingStartTable.Changes takeChanges() {
        WaitingStartTable.Changes taken = changes;
        changes = new WaitingStartTable.Changes();
        latenessThisBatch.clear();
        size = waiting.size();
        return taken;
    }

    /**
     * The partitions are positioned at their stored offsets: their waiting starts become the stored ones, and the
     * watermarks start afresh (those of records read again would expire starts before their release is read again).
     * Throws when PostgreSQL cannot be read; the partitions are then positioned again later.
     */
    void load(Collection<TopicPartition> partitions) throws SQLException {
        List<WaitingStartTable.Row> rows = stored.read(partitions);
        forget(partitions);
        waiting.forgetWatermarks();
        changes = new WaitingStartTable.Changes();
        latenessThisBatch.clear();
        try {
            // each stored row was held, none refused: at most as many of a cluster as may wait
            for (WaitingStartTable.Row row : rows) {
                waiting.hold(row.start(), row.record());
            }
        } catch (RuntimeException e) {
            // the allowed lateness is read from PostgreSQL too: the partitions are positioned again after a pause
            forget(partitions);
            throw new SQLException("cannot read the allowed lateness of a waiting start's cluster: " + e.getMessage(),
                    e);
        }
        size = waiting.size();
    }

    /** The partitions are no longer this consumer's. */
    void forget(Collection<TopicPartition> partitions) {
        Set<TopicPartition> gone = new HashSet<>(partitions);
        waiting.drop(record -> gone.contains(new TopicPartition(record.topic(), record.partition())));
        size = waiting.size();
    }

    /** How many starts wait, as of the last batch decoded or partitions positioned. */
    int size() {
        return size;
    }
}
