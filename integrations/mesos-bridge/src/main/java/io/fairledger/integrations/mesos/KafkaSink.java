package io.fairledger.integrations.mesos;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Publishes plain-JSON events with {@code content-type: application/json}, keyed by cluster, waiting for the brokers'
 * acknowledgement ({@code acks=all}) of each, so that a failure surfaces before the bridge reads on.
 */
public final class KafkaSink implements EventSink {

    private final KafkaProducer<byte[], byte[]> producer;

    public KafkaSink(Map<String, Object> settings) {
        Properties props = new Properties();
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.putAll(settings);
        producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    @Override
    public void publish(String topic, String key, String json) {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8),
                json.getBytes(StandardCharsets.UTF_8));
        record.headers().add(new RecordHeader("content-type", "application/json".getBytes(StandardCharsets.UTF_8)));
        try {
            producer.send(record).get(60, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Kafka did not acknowledge an event on " + topic, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while publishing", e);
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
