package io.fairledger.admission;

import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jboss.logging.Logger;

import io.fairledger.ingest.schema.EventTopics;
import io.fairledger.kafka.KafkaClientConfig;

/**
 * Publishes admission decisions to {@value #TOPIC}, keyed by cluster id (so one cluster's decisions stay in order on
 * one partition), as JSON {@link DecisionEvent}s, with the operator's Kafka settings ({@link KafkaClientConfig});
 * {@code acks=all}, idempotence and a 5 ms linger are defaults they may override. Sends are asynchronous; a failed
 * send is logged (the decision stays readable over HTTP).
 */
final class DecisionPublisher implements AutoCloseable {

    /** The topic resource managers read decisions from. */
    static final String TOPIC = EventTopics.ADMISSION_DECISIONS;

    private static final Logger LOG = Logger.getLogger(DecisionPublisher.class);
    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    private final KafkaProducer<String, String> producer;

    DecisionPublisher(Map<String, Object> kafkaConfig) {
        Map<String, Object> config = KafkaClientConfig.producer(kafkaConfig,
                Map.of(ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                        ProducerConfig.LINGER_MS_CONFIG, 5),
                Map.of());
        this.producer = new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
    }

    void publish(DecisionEvent decision) {
        String value;
        try {
            value = JSON.writeValueAsString(decision);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode a decision", e);
        }
        producer.send(new ProducerRecord<>(TOPIC, decision.cluster(), value), (metadata, error) -> {
            if (error != null) {
                LOG.errorf(error, "Decision for job %s of %s (position %d) not published", decision.jobId(),
                        decision.cluster(), decision.position());
            }
        });
    }

    @Override
    public void close() {
        producer.close();
    }
}
