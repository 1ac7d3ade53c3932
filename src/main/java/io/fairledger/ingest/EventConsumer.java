package io.fairledger.ingest;

import java.io.IOException;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

import io.fairledger.accounting.LedgerFact;
import io.fairledger.config.FairledgerConfig;
import io.fairledger.ingest.schema.Decoded;
import io.fairledger.ingest.schema.EventDecoder;
import io.fairledger.ingest.schema.EventTopics;
import io.fairledger.ingest.schema.FairledgerEvent;
import io.fairledger.observability.MetricNames;
import io.fairledger.tenancy.TenancyService;
import io.fairledger.errors.DomainException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
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
 * <p>
 * Decoding and committing overlap: while one committer thread writes batch n, the consumer thread polls and decodes
 * batch n+1. Batches still commit one at a time and in order, each with its own offsets, and batch n+1 is handed over
 * only once batch n is committed; when batch n fails, batch n+1 is dropped and both are read again from the stored
 * offsets. Before partitions are revoked the consumer waits for the commit in flight, so the next owner seeks to
 * offsets that include it. Task starts known to be stored already ({@link CommittedStarts}) are left out of a batch.
 */
@ApplicationScoped
public class EventConsumer {

    private static final Logger LOG = Logger.getLogger(EventConsumer.class);
    /** How long to wait before reading an uncommitted batch again (PostgreSQL unreachable, say), and between tries. */
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

    /** How many task starts the consumer remembers as stored ({@link CommittedStarts}): about 150 bytes each. */
    @Inject
    FairledgerConfig config;

    private final EventDecoder decoder = new EventDecoder(Clock.systemUTC());
    private volatile boolean running;
    private KafkaConsumer<byte[], byte[]> consumer;
    private DeadLetters deadLetters;
    private Thread thread;
    private String groupId;
    private Set<String> clusters = Set.of();
    private final Map<String, Counter> counters = new HashMap<>();
    private final Map<TopicPartition, AtomicLong> lags = new ConcurrentHashMap<>();
    private final Map<TopicPartition, Gauge> lagGauges = new HashMap<>();
    private ExecutorService committer;
    /** The commit of the last batch handed over, or null when it has been awaited. */
    private Future<Batch> inFlight;
    private CommittedStarts starts;
    /** Why the last commit failed, until the batch is read again. */
    private Throwable commitFailure;
    /** Partitions paused until they are positioned at their stored offsets (after a failed commit). */
    private final Set<TopicPartition> unpositioned = new HashSet<>();
    private long retryAtNanos;
    /** Facts of the batch being decoded left out as known to be stored. */
    private int knownInBatch;
    private Timer decodeTimer;
    private Timer commitTimer;

    void start(@Observes StartupEvent event) {
        groupId = String.valueOf(kafkaConfig.getOrDefault(ConsumerConfig.GROUP_ID_CONFIG, "fairledger"));
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafkaConfig.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG));
        config.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, this.config.ingest().maxPollRecords());
        config.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, this.config.ingest().fetchMinBytes());
        config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, (int) this.config.ingest().fetchMaxWait().toMillis());
        // a cluster's events share one partition: let one fetch fill a whole batch
        config.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, this.config.ingest().maxPartitionFetchBytes());
        consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        deadLetters = new DeadLetters(kafkaConfig);
        decodeTimer = Timer.builder(MetricNames.INGEST_BATCH_DECODE).publishPercentileHistogram().register(meters);
        commitTimer = Timer.builder(MetricNames.INGEST_BATCH_COMMIT).publishPercentileHistogram().register(meters);
        committer = Executors.newSingleThreadExecutor(r -> new Thread(r, "fairledger-commit"));
        starts = new CommittedStarts(this.config.ingest().knownStarts());
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
                positionWhenDue();
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(500));
                publishLag();
                if (records.isEmpty()) {
                    if (!previousCommitted()) {
                        readAgain();
                    }
                    continue;
                }
                Batch batch;
                try {
                    batch = decode(records);
                } catch (SQLException | RuntimeException e) {
                    previousCommitted();
                    commitFailure = commitFailure == null ? e : commitFailure;
                    readAgain();
                    continue;
                }
                if (!previousCommitted()) {
                    readAgain();
                    continue;
                }
                inFlight = committer.submit(() -> {
                    commit(batch);
                    return batch;
                });
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
            try {
                previousCommitted();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            committer.shutdown();
            consumer.close();
            deadLetters.close();
        }
    }

    /** A decoded batch: what to store, and the offsets after it; {@code known} facts were left out as stored. */
    private record Batch(int records, List<FactStore.Stored> facts, int known,
            List<FactStore.AdmissionRecord> admissions, Map<TopicPartition, Long> next) {
    }

    /**
     * Waits for the commit in flight, if any; false when it (or an earlier one not yet read again) failed. Called on
     * the consumer thread only.
     */
    private boolean previousCommitted() throws InterruptedException {
        if (inFlight != null) {
            try {
                starts.committed(inFlight.get().facts());
            } catch (ExecutionException e) {
                commitFailure = e.getCause();
            } finally {
                inFlight = null;
            }
        }
        return commitFailure == null;
    }

    /**
     * Nothing after the stored offsets is committed: pause every partition and read them again from the stored offsets
     * once the pause is over and the offsets can be read. Polling goes on meanwhile, so the consumer keeps its group
     * membership however long PostgreSQL is away.
     */
    private void readAgain() {
        LOG.errorf(commitFailure, "Batch not committed; reading again from the stored offsets in %d s",
                RETRY_PAUSE.toSeconds());
        commitFailure = null;
        unpositioned(consumer.assignment());
    }

    /** These partitions are paused until they can be positioned at their stored offsets, after the retry pause. */
    private void unpositioned(Collection<TopicPartition> partitions) {
        consumer.pause(partitions);
        unpositioned.addAll(partitions);
        retryAtNanos = System.nanoTime() + RETRY_PAUSE.toNanos();
    }

    /** Seeks the partitions waiting for it to their stored offsets and resumes them, when the pause is over. */
    private void positionWhenDue() {
        if (unpositioned.isEmpty() || System.nanoTime() - retryAtNanos < 0) {
            return;
        }
        try {
            seekToStoredOffsets(unpositioned);
            consumer.resume(unpositioned);
            unpositioned.clear();
        } catch (SQLException e) {
            LOG.warnf("Stored offsets cannot be read (%s); trying again in %d s", e.getMessage(),
                    RETRY_PAUSE.toSeconds());
            retryAtNanos = System.nanoTime() + RETRY_PAUSE.toNanos();
        }
    }

    private Batch decode(ConsumerRecords<byte[], byte[]> records) throws SQLException {
        Timer.Sample sample = Timer.start(meters);
        List<FactStore.Stored> facts = new ArrayList<>();
        List<FactStore.AdmissionRecord> admissions = new ArrayList<>();
        Map<TopicPartition, Long> next = new HashMap<>();
        knownInBatch = 0;
        for (ConsumerRecord<byte[], byte[]> record : records) {
            next.put(new TopicPartition(record.topic(), record.partition()), record.offset() + 1);
            String outcome = record.topic().equals(Topics.REGISTRATIONS)
                    ? register(record)
                    : accept(record, facts, admissions);
            count(record.topic(), outcome);
        }
        deadLetters.awaitSent();
        sample.stop(decodeTimer);
        return new Batch(records.count(), facts, knownInBatch, admissions, next);
    }

    /** On the committer thread: the batch's facts, records and offsets in one transaction. */
    private void commit(Batch batch) throws SQLException {
        Timer.Sample sample = Timer.start(meters);
        int inserted = store.commit(groupId, batch.facts(), batch.admissions(), batch.next());
        sample.stop(commitTimer);
        int duplicates = batch.facts().size() - inserted + batch.known();
        if (duplicates > 0) {
            meters.counter(MetricNames.INGEST_EVENTS, MetricNames.TOPIC, "all", MetricNames.OUTCOME, "duplicate")
                    .increment(duplicates);
        }
    }

    /**
     * The consumer's own lag (log end offset minus its position) of each assigned partition, as last fetched; one
     * gauge per assigned partition, removed when the partition is revoked.
     */
    private void publishLag() {
        for (TopicPartition tp : consumer.assignment()) {
            OptionalLong lag = consumer.currentLag(tp);
            if (lag.isPresent()) {
                lags.computeIfAbsent(tp, this::lagGauge).set(lag.getAsLong());
            }
        }
    }

    private AtomicLong lagGauge(TopicPartition tp) {
        AtomicLong value = new AtomicLong();
        lagGauges.put(tp, Gauge.builder(MetricNames.INGEST_CONSUMER_LAG, value, AtomicLong::doubleValue)
                .tag(MetricNames.TOPIC, tp.topic()).tag(MetricNames.PARTITION, Integer.toString(tp.partition()))
                .description("records not yet read (a base unit would suffix the name docs/metrics.md fixes)")
                .register(meters));
        return value;
    }

    private void forgetLag(Collection<TopicPartition> partitions) {
        for (TopicPartition tp : partitions) {
            lags.remove(tp);
            Gauge gauge = lagGauges.remove(tp);
            if (gauge != null) {
                meters.remove(gauge);
            }
        }
    }

    private String accept(ConsumerRecord<byte[], byte[]> record, List<FactStore.Stored> facts,
            List<FactStore.AdmissionRecord> admissions) throws SQLException {
        Decoded decoded = decoder.decode(record.topic(), record.headers(), record.value());
        if (decoded instanceof Decoded.Rejected rejected) {
            return deadLetter(record, rejected.rejection().reason().code(), rejected.rejection().describe());
        }
        FairledgerEvent event = ((Decoded.Ok) decoded).event();
        if (!knownCluster(event.cluster())) {
            return deadLetter(record, "unknown-cluster",
                    "unknown-cluster: no cluster '" + event.cluster() + "' is registered");
        }
        Normaliser.Result result = Normaliser.normalise(event);
        if (result instanceof Normaliser.Invalid invalid) {
            return deadLetter(record, "invalid", "invalid: " + invalid.reason());
        }
        if (result instanceof Normaliser.Admission) {
            admissions.add(new FactStore.AdmissionRecord(event.cluster(), event.eventId(),
                    event.eventTime().toEpochMilli(), event.getClass().getSimpleName(), contentType(record),
                    record.value()));
            return "admission";
        }
        List<LedgerFact> normalised = ((Normaliser.Facts) result).facts();
        for (LedgerFact fact : normalised) {
            if (starts.known(fact)) {
                knownInBatch++;
            } else {
                facts.add(new FactStore.Stored(fact, event.eventId(), record.topic(), record.partition(),
                        record.offset()));
            }
        }
        return normalised.isEmpty() ? "ignored" : "accepted";
    }

    private String register(ConsumerRecord<byte[], byte[]> record) {
        RegistrationEvent event;
        try {
            event = JSON.readValue(record.value(), RegistrationEvent.class);
        } catch (IOException | RuntimeException e) {
            return deadLetter(record, "undecodable", "undecodable: " + firstLine(e.getMessage()));
        }
        String problem = event.problem();
        if (problem != null) {
            return deadLetter(record, "invalid", "invalid: " + problem);
        }
        try {
            switch (event.type()) {
                case ClusterRegistered -> tenancy.ensureRegistered(event.cluster(), event.name(),
                        event.resourceManager());
                case TenantRegistered -> tenancy.upsertTenant(event.cluster(), event.tenant(), event.weight(),
                        event.discountRateOverride());
            }
            return "applied";
        } catch (DomainException e) {
            return deadLetter(record, "rejected", "rejected: " + e.getMessage());
        }
    }

    private boolean knownCluster(String clusterId) throws SQLException {
        if (!clusters.contains(clusterId)) {
            clusters = store.clusterIds();
        }
        return clusters.contains(clusterId);
    }

    /** @param code a stable reason code (bounded set: the metric's tag), @param reason the header's full text */
    private String deadLetter(ConsumerRecord<byte[], byte[]> record, String code, String reason) {
        deadLetters.send(record, reason);
        counters.computeIfAbsent("dlq\n" + record.topic() + '\n' + code,
                k -> meters.counter(MetricNames.INGEST_DEAD_LETTERS, MetricNames.TOPIC, record.topic(),
                        MetricNames.REASON, code))
                .increment();
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
    private void seekToStoredOffsets(Collection<TopicPartition> partitions) throws SQLException {
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
        LOG.infof("Positioned %d partition(s), %d at stored offsets", partitions.size(), stored.size());
    }

    /** Seeks on every assignment: the offsets that count are those committed with the facts. */
    private final class SeekToStoredOffsets implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            try {
                seekToStoredOffsets(partitions);
            } catch (SQLException e) {
                LOG.warnf("Stored offsets cannot be read (%s); the assigned partitions wait %d s", e.getMessage(),
                        RETRY_PAUSE.toSeconds());
                unpositioned(partitions);
            }
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            // the batch in flight commits (or fails, and is then read again) before the partitions go
            awaitInFlight();
            unpositioned.removeAll(partitions);
            forgetLag(partitions);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            awaitInFlight();
            unpositioned.removeAll(partitions);
            forgetLag(partitions);
        }

        private void awaitInFlight() {
            try {
                previousCommitted();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptException(e);
            }
        }
    }
}
