package io.fairledger.ingest;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.jboss.logging.Logger;

import io.fairledger.ingest.schema.EventTopics;

/**
 * Sends records that cannot be applied to {@link EventTopics#DEAD_LETTERS} with their original key, value and headers plus
 * the reason. Sends are asynchronous; {@link #awaitSent()} waits for the broker's acknowledgement of all of them, and
 * the consumer calls it before committing a batch, so a source offset only moves once its dead letters are safe.
 */
final class DeadLetters implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(DeadLetters.class);

    private final KafkaProducer<byte[], byte[]> producer;

    DeadLetters(Map<String, Object> kafkaConfig) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafkaConfig.get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG));
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        this.producer = new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private final List<Future<RecordMetadata>> pending = new ArrayList<>();

    void send(ConsumerRecord<byte[], byte[]> source, String reason) {
        ProducerRecord<byte[], byte[]> letter = new ProducerRecord<>(EventTopics.DEAD_LETTERS, null, source.key(),
                source.value(), source.headers());
        letter.headers().add(EventTopics.REASON_HEADER, reason.getBytes(StandardCharsets.UTF_8));
        letter.headers().add(EventTopics.SOURCE_TOPIC_HEADER, source.topic().getBytes(StandardCharsets.UTF_8));
        pending.add(producer.send(letter));
        LOG.debugf("Dead-lettered %s-%d@%d: %s", source.topic(), source.partition(), source.offset(), reason);
    }

    /** Waits until every dead letter sent so far is acknowledged; throws when one could not be written. */
    void awaitSent() {
        try {
            for (Future<RecordMetadata> f : pending) {
                f.get(30, TimeUnit.SECONDS);
            }
            pending.clear();
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
