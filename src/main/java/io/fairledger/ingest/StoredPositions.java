package io.fairledger.ingest;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

/**
 * Where the consumer reads each partition from: the offset stored in PostgreSQL with the facts (the partition's
 * beginning when none is), never Kafka's committed one, with the Mesos starts that wait for their resources stored
 * with that offset ({@link ConsumerWaitingStarts#load}). A partition whose stored offset cannot be read (PostgreSQL
 * away), or whose batch was not committed, is paused and positioned again after a pause; polling goes on meanwhile, so
 * the consumer keeps its group membership. Consumer thread only.
 */
final class StoredPositions {

    private static final Logger LOG = Logger.getLogger(StoredPositions.class);

    private final KafkaConsumer<?, ?> consumer;
    private final BatchStore store;
    private final String groupId;
    private final Duration pause;
    private final ConsumerWaitingStarts waitingStarts;
    /** Partitions paused until they are positioned at their stored offsets. */
    private final Set<TopicPartition> waiting = new HashSet<>();
    private long retryAtNanos;

    StoredPositions(KafkaConsumer<?, ?> consumer, BatchStore store, String groupId, Duration pause,
            ConsumerWaitingStarts waitingStarts) {
        this.consumer = consumer;
        this.store = store;
        this.groupId = groupId;
        this.pause = pause;
        this.waitingStarts = waitingStarts;
    }

    /** Newly assigned partitions: positioned now, or after the pause when the stored offsets cannot be read. */
    void assigned(Collection<TopicPartition> partitions) {
        try {
            seek(partitions);
        } catch (SQLException e) {
            LOG.warnf("Stored offsets cannot be read (%s); the assigned partitions wait %d s", e.getMessage(),
                    pause.toSeconds());
            later(partitions);
        }
    }

    /** These partitions are paused until they can be positioned at their stored offsets, after the pause. */
    void later(Collection<TopicPartition> partitions) {
        consumer.pause(partitions);
        waiting.addAll(partitions);
        retryAtNanos = System.nanoTime() + pause.toNanos();
    }

    /** Seeks the partitions waiting for it to their stored offsets and resumes them, when the pause is over. */
    void positionWhenDue() {
        if (waiting.isEmpty() || System.nanoTime() - retryAtNanos < 0) {
            return;
        }
        try {
            seek(waiting);
            consumer.resume(waiting);
            waiting.clear();
        } catch (SQLException e) {
            LOG.warnf("Stored offsets cannot be read (%s); trying again in %d s", e.getMessage(), pause.toSeconds());
            retryAtNanos = System.nanoTime() + pause.toNanos();
        }
    }

    /** Partitions revoked or lost: no longer this consumer's to position. */
    void forget(Collection<TopicPartition> partitions) {
        waiting.removeAll(partitions);
    }

    private void seek(Collection<TopicPartition> partitions) throws SQLException {
        Map<TopicPartition, Long> stored = store.offsets(groupId, partitions);
        // the waiting starts of the records before the stored offsets: those of any uncommitted batch are forgotten
        waitingStarts.load(partitions);
        List<TopicPartition> fresh = new ArrayList<>();
        for (TopicPartition tp : partitions) {
            Long offset = stored.get(tp);
            if (offset == null) {
                fresh.add(tp);
            } else {
                consumer.seek(tp, offset);
            }
        }
        consumer.seekToBeginning(fresh);
        LOG.infof("Positioned %d partition(s), %d at stored offsets", partitions.size(), stored.size());
    }
}
