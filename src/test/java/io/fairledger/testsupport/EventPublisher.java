package io.fairledger.testsupport;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import io.fairledger.ingest.schema.EventDecoder;
import io.fairledger.ingest.schema.EventTopics;

/** Publishes JSON event lines to an event topic (the YARN container topic unless told), keyed by cluster, as a resource manager's bridge would. */
public final class EventPublisher {

    private EventPublisher() {
    }

    /** Sends {@code lines} in order and waits until the broker has them all. */
    public static void publishYarn(String bootstrap, String cluster, List<String> lines) {
        publish(bootstrap, EventTopics.YARN_CONTAINERS, cluster, lines);
    }

    /** Sends {@code lines} to {@code topic} in order and waits until the broker has them all. */
    public static void publish(String bootstrap, String topic, String cluster, List<String> lines) {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.LINGER_MS_CONFIG, 5),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (String line : lines) {
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic,
                        cluster.getBytes(StandardCharsets.UTF_8), line.getBytes(StandardCharsets.UTF_8));
                record.headers().add(EventDecoder.CONTENT_TYPE_HEADER,
                        EventDecoder.JSON.getBytes(StandardCharsets.UTF_8));
                producer.send(record);
            }
            producer.flush();
        }
    }
}
