package io.fairledger.ingest;

import java.io.IOException;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

import io.fairledger.accounting.LedgerFact;
import io.fairledger.ingest.schema.Decoded;
import io.fairledger.ingest.schema.EventDecoder;
import io.fairledger.ingest.schema.EventTopics;
import io.fairledger.ingest.schema.FairledgerEvent;
import io.fairledger.observability.MetricNames;
import io.fairledger.tenancy.TenancyService;
import io.fairledger.web.ProblemException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * The one consumer of the group: registrations and every event topic. Per batch, each record is decoded, validated and
 * normalised; registrations are applied through {@link TenancyService} (idempotent upserts); ledger facts, admission
 * records and the offsets after the batch are committed to PostgreSQL in one transaction, and on every partition
 * assignment the consumer seeks to the offsets stored there, so a crash or a rebalance loses and double-counts nothing.
 * A record that cannot be applied goes to the dead-letter topic with its reason before the batch commits, and the
 * consumer goes on; a batch that cannot be committed (PostgreSQL down) is read again from the stored offsets after a
 * pause.
 */
@ApplicationScoped
public class EventConsumer {

    private static final Logger LOG = Logger.getLogger(EventConsumer.class);
    /** How long to wait before reading an uncommitted batch again (PostgreSQL unreachable, say). */
    private static final Duration RETRY_PAUSE = Duration.ofSeconds(5);
    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    @Inject
    @Identifier("default-kafka-broker")
    Map<String, Object> kafkaConfig;

    @Inject
    TenancyService tenancy;

    @Inject
    FactStore store;

    @Inject
    MeterRegistry meters;

    private final EventDecoder decoder = new EventDecoder(Clock.systemUTC());
    private volatile boolean running;
    private KafkaConsumer<byte[], byte[]> consumer;
    private DeadLetters deadLetters;
    private Thread thread;
    private String groupId;
    private Set<String> clusters = Set.of();
    private final Map<String, Counter> counters = new HashMap<>();

    void start(@Observes StartupEvent event) {
        groupId = String.valueOf(kafkaConfig.getOrDefault(ConsumerConfig.GROUP_ID_CONFIG, "fairledger"));
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafkaConfig.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG));
        config.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        config.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, 64 * 1024);
        config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
        // a cluster's events share one partition: let one fetch fill a whole batch
        config.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 * 1024 * 1024);
        consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        deadLetters = new DeadLetters(kafkaConfig);
        running = true;
        thread = new Thread(this::run, "fairledger-events");
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
            List<String> topics = new ArrayList<>(EventTopics.ALL);
            topics.add(Topics.REGISTRATIONS);
            consumer.subscribe(topics, new SeekToStoredOffsets());
            while (running) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(500));
                if (records.isEmpty()) {
                    continue;
                }
                try {
                    handle(records);
                } catch (SQLException | RuntimeException e) {
                    // nothing of the batch is committed: read it again from the stored offsets after a pause
                    LOG.errorf(e, "Batch of %d record(s) not committed; retrying from the stored offsets in %d s",
                            records.count(), RETRY_PAUSE.toSeconds());
                    Thread.sleep(RETRY_PAUSE.toMillis());
                    seekToStoredOffsets(consumer.assignment());
                }
            }
        } catch (WakeupException e) {
            if (running) {
                throw e;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.error("Event consumer stopped; unread records stay in Kafka until restart", e);
        } finally {
            consumer.close();
            deadLetters.close();
        }
    }

    private void handle(ConsumerRecords<byte[], byte[]> records) throws SQLException {
        Timer.Sample sample = Timer.start(meters);
        List<FactStore.Stored> facts = new ArrayList<>();
        List<FactStore.AdmissionRecord> admissions = new ArrayList<>();
        Map<TopicPartition, Long> next = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            next.put(new TopicPartition(record.topic(), record.partition()), record.offset() + 1);
            String outcome = record.topic().equals(Topics.REGISTRATIONS)
                    ? register(record)
                    : accept(record, facts, admissions);
            count(record.topic(), outcome);
        }
        deadLetters.awaitSent();
        sample.stop(meters.timer(MetricNames.INGEST_BATCH_DECODE));
        Timer.Sample commit = Timer.start(meters);
        int inserted = store.commit(groupId, facts, admissions, next);
        commit.stop(meters.timer(MetricNames.INGEST_BATCH_COMMIT));
        if (facts.size() > inserted) {
            meters.counter(MetricNames.INGEST_EVENTS, MetricNames.TOPIC, "all", MetricNames.OUTCOME, "duplicate")
                    .increment(facts.size() - inserted);
        }
    }

    private String accept(ConsumerRecord<byte[], byte[]> record, List<FactStore.Stored> facts,
            List<FactStore.AdmissionRecord> admissions) throws SQLException {
        Decoded decoded = decoder.decode(record.topic(), record.headers(), record.value());
        if (decoded instanceof Decoded.Rejected rejected) {
            return deadLetter(record, rejected.rejection().describe());
        }
        FairledgerEvent event = ((Decoded.Ok) decoded).event();
        if (!knownCluster(event.cluster())) {
            return deadLetter(record, "unknown-cluster: no cluster '" + event.cluster() + "' is registered");
        }
        Normaliser.Result result = Normaliser.normalise(event);
        if (result instanceof Normaliser.Invalid invalid) {
            return deadLetter(record, "invalid: " + invalid.reason());
        }
        if (result instanceof Normaliser.Admission) {
            admissions.add(new FactStore.AdmissionRecord(event.cluster(), event.eventId(),
                    event.eventTime().toEpochMilli(), event.getClass().getSimpleName(), contentType(record),
                    record.value()));
            return "admission";
        }
        List<LedgerFact> normalised = ((Normaliser.Facts) result).facts();
        for (LedgerFact fact : normalised) {
            facts.add(new FactStore.Stored(fact, event.eventId(), record.topic(), record.partition(),
                    record.offset()));
        }
        return normalised.isEmpty() ? "ignored" : "accepted";
    }

    private String register(ConsumerRecord<byte[], byte[]> record) {
        RegistrationEvent event;
        try {
            event = JSON.readValue(record.value(), RegistrationEvent.class);
        } catch (IOException | RuntimeException e) {
            return deadLetter(record, "undecodable: " + firstLine(e.getMessage()));
        }
        String problem = event.problem();
        if (problem != null) {
            return deadLetter(record, "invalid: " + problem);
        }
        try {
            switch (event.type()) {
                case ClusterRegistered -> tenancy.ensureRegistered(event.cluster(), event.name(),
                        event.resourceManager());
                case TenantRegistered -> tenancy.upsertTenant(event.cluster(), event.tenant(), event.weight(),
                        event.discountRateOverride());
            }
            return "applied";
        } catch (ProblemException e) {
            return deadLetter(record, "rejected: " + e.getMessage());
        }
    }

    private boolean knownCluster(String clusterId) throws SQLException {
        if (!clusters.contains(clusterId)) {
            clusters = store.clusterIds();
        }
        return clusters.contains(clusterId);
    }

    private String deadLetter(ConsumerRecord<byte[], byte[]> record, String reason) {
        deadLetters.send(record, reason);
        return "dead-letter";
    }

    private void count(String topic, String outcome) {
        counters.computeIfAbsent(topic + '\n' + outcome, k -> meters.counter(MetricNames.INGEST_EVENTS,
                MetricNames.TOPIC, topic, MetricNames.OUTCOME, outcome)).increment();
    }

    private static String contentType(ConsumerRecord<byte[], byte[]> record) {
        Header header = record.headers().lastHeader(EventDecoder.CONTENT_TYPE_HEADER);
        return header == null ? null : new String(header.value(), java.nio.charset.StandardCharsets.UTF_8);
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "no detail";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    /** Positions each partition at the offset stored with the facts (its beginning when none is), not at Kafka's. */
    private void seekToStoredOffsets(Collection<TopicPartition> partitions) {
        try {
            Map<TopicPartition, Long> stored = store.offsets(groupId, partitions);
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
            LOG.infof("Assigned %d partition(s), %d at stored offsets", partitions.size(), stored.size());
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read stored consumer offsets", e);
        }
    }

    /** Seeks on every assignment: the offsets that count are those committed with the facts. */
    private final class SeekToStoredOffsets implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            seekToStoredOffsets(partitions);
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            // every processed batch is already committed with its offsets
        }
    }
}
