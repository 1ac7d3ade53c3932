package io.fairledger.ingest;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.jboss.logging.Logger;

import io.fairledger.core.model.PlainText;
import io.fairledger.ingest.schema.EventTopics;
import io.fairledger.kafka.KafkaClientConfig;

/**
 * Sends records that cannot be applied to {@link EventTopics#DEAD_LETTERS} with their original key, value and headers
 * plus the reason and where they came from (source topic, partition, offset and timestamp headers), so
 * {@code fairledger dlq} can list them by reason and send chosen ones back to their topic. The producer gets the
 * operator's Kafka settings; {@code acks=all} and idempotence are fixed, since a source offset moves only once its
 * dead letters are safe.
 * <p>
 * {@link #send} is asynchronous and {@link #awaitSent()} waits for the broker's acknowledgement of all of them: the
 * consumer thread calls it before handing a batch over for commit. {@link #deliver} sends one and waits for it, for the
 * committer thread (records the database refused), and may run beside the consumer thread's sends.
 * <p>
 * A record is dead-lettered once: the positions of letters acknowledged are remembered until its partition's stored
 * offset passes them ({@link #stored}) or the partition is revoked, so a batch read again (PostgreSQL away, say) sends
 * none of its letters a second time. A reason is sent with its control characters escaped ({@link PlainText#escaped}):
 * it is shown in terminals and logs.
 */
final class DeadLetters implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(DeadLetters.class);
    private static final long ACK_TIMEOUT_SECONDS = 30;

    private final KafkaProducer<byte[], byte[]> producer;
    private final List<Future<RecordMetadata>> pending = new ArrayList<>();
    private final List<ConsumerRecord<byte[], byte[]>> pendingSources = new ArrayList<>();
    /** Offsets dead-lettered and acknowledged, by partition, not yet below the partition's stored offset. */
    private final Map<TopicPartition, NavigableSet<Long>> sent = new ConcurrentHashMap<>();

    DeadLetters(Map<String, ?> kafkaConfig) {
        Map<String, Object> config = KafkaClientConfig.producer(kafkaConfig, Map.of(),
                Map.of(ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true));
        this.producer = new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /**
     * Sends a dead letter, unless this record was sent already (false then); {@link #awaitSent()} waits for it.
     * Consumer thread only.
     */
    boolean send(ConsumerRecord<byte[], byte[]> source, String reason) {
        if (alreadySent(source)) {
            return false;
        }
        pending.add(producer.send(letter(source, reason)));
        pendingSources.add(source);
        LOG.debugf("Dead-lettered %s-%d@%d: %s", source.topic(), source.partition(), source.offset(),
                PlainText.escaped(reason));
        return true;
    }

    /** Waits until every dead letter sent so far is acknowledged; throws when one could not be written. */
    void awaitSent() {
        try {
            for (int i = 0; i < pending.size(); i++) {
                await(pending.get(i));
                remember(pendingSources.get(i));
            }
        } finally {
            pending.clear();
            pendingSources.clear();
        }
    }

    /**
     * Sends a dead letter and waits for its acknowledgement, unless this record was sent already (false then); throws
     * when it could not be written. Any thread.
     */
    boolean deliver(ConsumerRecord<byte[], byte[]> source, String reason) {
        if (alreadySent(source)) {
            return false;
        }
        await(producer.send(letter(source, reason)));
        remember(source);
        LOG.warnf("Dead-lettered %s-%d@%d: %s", source.topic(), source.partition(), source.offset(),
                PlainText.escaped(reason));
        return true;
    }

    /** The offsets {@code next} are stored: the letters before them are never read again. */
    void stored(Map<TopicPartition, Long> next) {
        next.forEach((tp, offset) -> {
            NavigableSet<Long> offsets = sent.get(tp);
            if (offsets != null) {
                offsets.headSet(offset).clear();
            }
        });
    }

    /** Partitions revoked or lost: their next owner reads from the stored offsets and sends what lies after them. */
    void forget(Collection<TopicPartition> partitions) {
        partitions.forEach(sent::remove);
    }

    private boolean alreadySent(ConsumerRecord<byte[], byte[]> source) {
        NavigableSet<Long> offsets = sent.get(new TopicPartition(source.topic(), source.partition()));
        return offsets != null && offsets.contains(source.offset());
    }

    private void remember(ConsumerRecord<byte[], byte[]> source) {
        sent.computeIfAbsent(new TopicPartition(source.topic(), source.partition()),
                tp -> new ConcurrentSkipListSet<>()).add(source.offset());
    }

    static ProducerRecord<byte[], byte[]> letter(ConsumerRecord<byte[], byte[]> source, String reason) {
        ProducerRecord<byte[], byte[]> letter = new ProducerRecord<>(EventTopics.DEAD_LETTERS, null, source.key(),
                source.value());
        for (Header header : source.headers()) {
            if (!header.key().startsWith(EventTopics.DEAD_LETTER_HEADER_PREFIX)) {
                letter.headers().add(header);
            }
        }
        header(letter, EventTopics.REASON_HEADER, PlainText.escaped(reason));
        header(letter, EventTopics.SOURCE_TOPIC_HEADER, source.topic());
        header(letter, EventTopics.SOURCE_PARTITION_HEADER, Integer.toString(source.partition()));
        header(letter, EventTopics.SOURCE_OFFSET_HEADER, Long.toString(source.offset()));
        header(letter, EventTopics.SOURCE_TIMESTAMP_HEADER, Long.toString(source.timestamp()));
        return letter;
    }

    private static void header(ProducerRecord<byte[], byte[]> letter, String key, String value) {
        letter.headers().add(key, value.getBytes(StandardCharsets.UTF_8));
    }

    private static void await(Future<RecordMetadata> sent) {
        try {
            sent.get(ACK_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while dead-lettering", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot write to " + EventTopics.DEAD_LETTERS + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
