package io.fairledger.ingest;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.jboss.logging.Logger;

/**
 * Sends a record that cannot be applied to {@link Topics#DEAD_LETTERS} with its original key, value and headers plus
 * the reason, and waits for the broker's acknowledgement so the source offset is only committed once the record is
 * safe.
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

    void send(ConsumerRecord<byte[], byte[]> source, String reason) {
        ProducerRecord<byte[], byte[]> letter = new ProducerRecord<>(Topics.DEAD_LETTERS, null, source.key(),
                source.value(), source.headers());
        letter.headers().add(Topics.REASON_HEADER, reason.getBytes(StandardCharsets.UTF_8));
        letter.headers().add(Topics.SOURCE_TOPIC_HEADER, source.topic().getBytes(StandardCharsets.UTF_8));
        try {
            producer.send(letter).get(30, TimeUnit.SECONDS);
            LOG.warnf("Dead-lettered %s-%d@%d: %s", source.topic(), source.partition(), source.offset(), reason);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while dead-lettering", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot write to " + Topics.DEAD_LETTERS + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
