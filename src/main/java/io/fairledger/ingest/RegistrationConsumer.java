package io.fairledger.ingest;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

import io.fairledger.observability.MetricNames;
import io.fairledger.tenancy.TenancyService;
import io.fairledger.web.ProblemException;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * Applies cluster and tenant registrations from {@link Topics#REGISTRATIONS}. Registrations are idempotent upserts, so
 * a redelivered record changes nothing; offsets are committed after each batch is applied. A record that cannot be
 * decoded or applied goes to the dead-letter topic with its reason and the consumer goes on.
 */
@ApplicationScoped
public class RegistrationConsumer {

    private static final Logger LOG = Logger.getLogger(RegistrationConsumer.class);
    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    @Inject
    @Identifier("default-kafka-broker")
    Map<String, Object> kafkaConfig;

    @Inject
    TenancyService tenancy;

    @Inject
    MeterRegistry meters;

    private volatile boolean running;
    private KafkaConsumer<byte[], byte[]> consumer;
    private DeadLetters deadLetters;
    private Thread thread;

    void start(@Observes StartupEvent event) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafkaConfig.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG));
        config.put(ConsumerConfig.GROUP_ID_CONFIG,
                kafkaConfig.getOrDefault(ConsumerConfig.GROUP_ID_CONFIG, "fairledger"));
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        deadLetters = new DeadLetters(kafkaConfig);
        running = true;
        thread = new Thread(this::run, "fairledger-registrations");
        thread.start();
    }

    void stop(@Observes ShutdownEvent event) throws InterruptedException {
        running = false;
        if (consumer != null) {
            consumer.wakeup();
            thread.join(30_000);
        }
    }

    private void run() {
        try {
            consumer.subscribe(List.of(Topics.REGISTRATIONS));
            while (running) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(500));
                for (ConsumerRecord<byte[], byte[]> record : records) {
                    handle(record);
                }
                if (!records.isEmpty()) {
                    consumer.commitSync();
                }
            }
        } catch (WakeupException e) {
            if (running) {
                throw e;
            }
        } catch (RuntimeException e) {
            LOG.error("Registration consumer stopped; records stay unread until restart", e);
        } finally {
            consumer.close();
            deadLetters.close();
        }
    }

    private void handle(ConsumerRecord<byte[], byte[]> record) {
        String outcome;
        RegistrationEvent event;
        try {
            event = JSON.readValue(record.value(), RegistrationEvent.class);
        } catch (IOException | RuntimeException e) {
            deadLetter(record, "undecodable: " + firstLine(e.getMessage()));
            return;
        }
        String problem = event.problem();
        if (problem != null) {
            deadLetter(record, "invalid: " + problem);
            return;
        }
        try {
            apply(event);
            outcome = "applied";
        } catch (ProblemException e) {
            deadLetter(record, "rejected: " + e.getMessage());
            return;
        }
        meters.counter(MetricNames.INGEST_EVENTS, MetricNames.TOPIC, record.topic(), MetricNames.OUTCOME, outcome)
                .increment();
    }

    private void apply(RegistrationEvent event) {
        switch (event.type()) {
            case ClusterRegistered -> tenancy.ensureRegistered(event.cluster(), event.name(), event.resourceManager());
            case TenantRegistered -> tenancy.upsertTenant(event.cluster(), event.tenant(), event.weight(),
                    event.discountRateOverride());
        }
    }

    private void deadLetter(ConsumerRecord<byte[], byte[]> record, String reason) {
        deadLetters.send(record, reason);
        meters.counter(MetricNames.INGEST_EVENTS, MetricNames.TOPIC, record.topic(), MetricNames.OUTCOME,
                "dead-letter").increment();
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "no detail";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
