package io.fairledger.ingest;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
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
    private final WaitingStarts<ConsumerRecord<byte[], byte[]>> waiting;
    private WaitingStartTable.Changes changes = new WaitingStartTable.Changes();
    private volatile int size;

    ConsumerWaitingStarts(Function<String, Duration> lateness, Stored stored) {
        this.stored = stored;
        this.waiting = new WaitingStarts<>(lateness, record -> changes.gone(record));
    }

    /** {@code start}, of {@code record}, waits. */
    void hold(Normaliser.Unresourced start, ConsumerRecord<byte[], byte[]> record) {
        waiting.hold(start, record);
        changes.held(record, start);
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
        size = waiting.size();
        return taken;
    }

    /** The partitions are positioned at their stored offsets: their waiting starts become the stored ones. */
    void load(Collection<TopicPartition> partitions) throws SQLException {
        List<WaitingStartTable.Row> rows = stored.read(partitions);
        forget(partitions);
        changes = new WaitingStartTable.Changes();
        for (WaitingStartTable.Row row : rows) {
            waiting.hold(row.start(), row.record());
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
