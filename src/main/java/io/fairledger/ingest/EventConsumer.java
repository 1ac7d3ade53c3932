package io.fairledger.ingest;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.jboss.logging.Logger;

import io.fairledger.config.FairledgerConfig;
import io.fairledger.facts.FactCursor;
import io.fairledger.facts.RetentionFloors;
import io.fairledger.facts.LedgerFact;
import io.fairledger.facts.SourcedFact;
import io.fairledger.ingest.PoisonRecords.Share;
import io.fairledger.ingest.registry.ConsumerDecoder;
import io.fairledger.ingest.schema.EventDecoder;
import io.fairledger.ingest.schema.EventEncoder;
import io.fairledger.ingest.schema.EventTopics;
import io.fairledger.ingest.schema.FairledgerEvent;
import io.fairledger.kafka.KafkaClientConfig;
import io.fairledger.kafka.KafkaConnectionCheck;
import io.fairledger.observability.MetricNames;
import io.fairledger.tenancy.TenancyService;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * The one consumer of the group: registrations and every event topic. It keeps the Kafka protocol (the poll loop,
 * rebalances, the commit pipeline); per batch, each event record goes through the {@link Intake} and each
 * registration through {@link Registrations} (idempotent, the admin API's own rules); ledger facts, admission
 * records and the offsets after the batch are committed to PostgreSQL in one transaction, and on every partition
 * assignment the consumer seeks to the offsets stored there ({@link StoredPositions}), so a crash or a rebalance loses
 * and double-counts nothing. The same offsets are then committed to Kafka too, for lag tools and autoscalers, but never
 * read back. A record that cannot be applied goes to the dead-letter topic with its reason before the batch commits,
 * and the consumer goes on; so does a record the database refuses ({@link PoisonRecords}); a batch that cannot be
 * committed (PostgreSQL down) is read again from the stored offsets after a pause.
 * <p>
 * The clients get the operator's Kafka settings ({@link KafkaClientConfig}), checked by one connection at startup
 * ({@link KafkaConnectionCheck}), so wrong credentials stop the server with a message naming the setting.
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

    @Inject
    @Identifier("default-kafka-broker")
    Map<String, Object> kafkaConfig;

    @Inject
    TenancyService tenancy;

    @Inject
    Registrations registrations;

    @Inject
    BatchStore store;

    @Inject
    FactCursor factCursor;

    @Inject
    RetentionFloors retentionFloors;

    @Inject
    MeterRegistry meters;

    /** How many task starts the consumer remembers as stored ({@link CommittedStarts}): about 150 bytes each. */
    @Inject
    FairledgerConfig config;

    /** Built at start, with the configured schema registry ({@link ConsumerDecoder}). */
    private EventDecoder decoder;
    private final EventEncoder encoder = new EventEncoder();
    private RegisteredClusters clusters;
    private StoredStarts knownStarts;
    private Intake intake;
    private volatile boolean running;
    private KafkaConsumer<byte[], byte[]> consumer;
    private DeadLetters deadLetters;
    private volatile Thread thread;
    private String groupId;
    private volatile IngestMeters ingestMeters;
    private ExecutorService committer;
    /** The commit of the last batch handed over, or null when it has been awaited. */
    private Future<Batch> inFlight;
    private CommittedStarts starts;
    /** Why the last commit failed, until the batch is read again. */
    private Throwable commitFailure;
    private StoredPositions positions;
    /** Facts of the batch being decoded left out as known to be stored. */
    private int knownInBatch;
    private Timer decodeTimer;
    private Timer commitTimer;
    /** What ended the consumer thread, if an exception did. */
    private volatile Throwable stoppedBy;

    void start(@Observes StartupEvent event) {
        String problem = KafkaConnectionCheck.problem(kafkaConfig);
        if (problem != null) {
            throw new IllegalStateException("fairledger cannot consume events: " + problem);
        }
        groupId = String.valueOf(kafkaConfig.getOrDefault(ConsumerConfig.GROUP_ID_CONFIG, "fairledger"));
        FairledgerConfig.Ingest tuning = this.config.ingest();
        // a cluster's events share one partition: max.partition.fetch.bytes lets one fetch fill a whole batch
        Map<String, Object> defaults = Map.of(ConsumerConfig.GROUP_ID_CONFIG, groupId,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, tuning.maxPollRecords(),
                ConsumerConfig.FETCH_MIN_BYTES_CONFIG, tuning.fetchMinBytes(),
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, (int) tuning.fetchMaxWait().toMillis(),
                ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, tuning.maxPartitionFetchBytes());
        // the offsets that count are PostgreSQL's; Kafka's are committed after each stored batch, for lag tools
        Map<String, Object> fixed = Map.of(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumer = new KafkaConsumer<>(KafkaClientConfig.consumer(kafkaConfig, defaults, fixed),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        positions = new StoredPositions(consumer, store, groupId, RETRY_PAUSE);
        decoder = ConsumerDecoder.of(tuning.registry(), Clock.systemUTC());
        deadLetters = new DeadLetters(kafkaConfig);
        decodeTimer = Timer.builder(MetricNames.INGEST_BATCH_DECODE).publishPercentileHistogram().register(meters);
        commitTimer = Timer.builder(MetricNames.INGEST_BATCH_COMMIT).publishPercentileHistogram().register(meters);
        ingestMeters = new IngestMeters(meters);
        committer = Executors.newSingleThreadExecutor(r -> new Thread(r, "fairledger-commit"));
        starts = new CommittedStarts(this.config.ingest().knownStarts());
        clusters = new RegisteredClusters(tenancy::registrations, retentionFloors::all);
        knownStarts = new StoredStarts(this.config.ingest().knownStarts(), factCursor);
        intake = new Intake(clusters, knownStarts);
        running = true;
        thread = new Thread(this::run, "fairledger-events");
        thread.setUncaughtExceptionHandler((t, e) -> {
            stoppedBy = e;
            LOG.error("Event consumer stopped; unread records stay in Kafka until restart", e);
        });
        thread.start();
    }

    void stop(@Observes ShutdownEvent event) throws InterruptedException {
        running = false;
        if (consumer != null) {
            consumer.wakeup();
            thread.join(30_000);
        }
    }

    /**
     * Why the consumer thread is gone although the server is not shutting down (it died of an exception, or stopped
     * otherwise): the exception's class, or empty while it runs, before it starts and during shutdown. Read by the
     * liveness check ({@link ConsumerLiveness}).
     */
    public Optional<String> stoppedUnexpectedly() {
        Thread t = thread;
        if (t == null || !running || t.isAlive()) {
            return Optional.empty();
        }
        Throwable cause = stoppedBy;
        return Optional.of(cause == null ? "the consumer thread ended" : cause.getClass().getName());
    }

    /** Records of the assigned partitions not yet read, as last fetched (0 before the first fetch). */
    public long lag() {
        IngestMeters m = ingestMeters;
        return m == null ? 0 : m.totalLag();
    }

    private void run() {
        try {
            List<String> topics = new ArrayList<>(EventTopics.ALL);
            topics.add(EventTopics.REGISTRATIONS);
            consumer.subscribe(topics, new SeekToStoredOffsets());
            while (running) {
                positions.positionWhenDue();
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(500));
                ingestMeters.publishLag(consumer);
                if (records.isEmpty()) {
                    if (!previousCommitted()) {
                        readAgain();
                    }
                    continue;
                }
                Batch batch;
                try {
                    batch = decode(records);
                } catch (RuntimeException e) {
                    previousCommitted();
                    commitFailure = commitFailure == null ? e : commitFailure;
                    readAgain();
                    continue;
                }
                if (!previousCommitted()) {
                    readAgain();
                    continue;
                }
                inFlight = committer.submit(() -> commit(batch));
            }
        } catch (WakeupException e) {
            if (running) {
                throw e;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            stoppedBy = e;
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

    /**
     * Waits for the commit in flight, if any; false when it (or an earlier one not yet read again) failed. Called on
     * the consumer thread only.
     */
    private boolean previousCommitted() throws InterruptedException {
        if (inFlight != null) {
            try {
                Batch committed = inFlight.get();
                starts.committed(committed.facts());
                knownStarts.committed(committed.facts());
                commitToKafka(committed.next());
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
        positions.later(consumer.assignment());
    }

    private Batch decode(ConsumerRecords<byte[], byte[]> records) {
        Timer.Sample sample = Timer.start(meters);
        List<Share> shares = new ArrayList<>();
        Map<TopicPartition, Long> next = new HashMap<>();
        knownInBatch = 0;
        clusters.newBatch();
        lookUpWriterSchemas(records);
        for (ConsumerRecord<byte[], byte[]> record : records) {
            next.put(new TopicPartition(record.topic(), record.partition()), record.offset() + 1);
            String outcome = record.topic().equals(EventTopics.REGISTRATIONS)
                    ? register(record)
                    : accept(record, shares);
            ingestMeters.count(record.topic(), outcome);
        }
        deadLetters.awaitSent();
        sample.stop(decodeTimer);
        return new Batch(records.count(), shares, knownInBatch, next);
    }

    /**
     * Looks up the writer schemas of the batch's registry-framed records before any record is dead-lettered: when the
     * schema registry is away this throws, and the batch is read again later (after a pause) without having sent
     * anything, so no event is lost and no dead letter is sent twice.
     */
    private void lookUpWriterSchemas(ConsumerRecords<byte[], byte[]> records) {
        for (ConsumerRecord<byte[], byte[]> record : records) {
            if (!record.topic().equals(EventTopics.REGISTRATIONS)) {
                decoder.lookUpWriterSchema(record.headers(), record.value());
            }
        }
    }

    /**
     * On the committer thread: the batch's facts, records and offsets in one transaction. When the database refuses
     * some record of it ({@link PoisonRecords}), those records are dead-lettered with its reason and the rest is
     * committed with the same offsets; returns the batch as committed.
     */
    private Batch commit(Batch batch) throws SQLException {
        Timer.Sample sample = Timer.start(meters);
        PoisonRecords.Committed done = PoisonRecords.commit(batch.shares(),
                (facts, admissions) -> store.commit(groupId, facts, admissions, batch.next()), store::trial,
                this::refused);
        sample.stop(commitTimer);
        Batch committed = new Batch(batch.records(), done.kept(), batch.known(), batch.next());
        int duplicates = committed.facts().size() - done.inserted() + batch.known();
        if (duplicates > 0) {
            meters.counter(MetricNames.INGEST_EVENTS, MetricNames.TOPIC, "all", MetricNames.OUTCOME, "duplicate")
                    .increment(duplicates);
        }
        return committed;
    }

    /** On the committer thread: a record the database refused goes to the dead letters before the batch commits. */
    private void refused(ConsumerRecord<byte[], byte[]> record, String reason) {
        deadLetters.deliver(record, reason);
        meters.counter(MetricNames.INGEST_DEAD_LETTERS, MetricNames.TOPIC, record.topic(), MetricNames.REASON,
                PoisonRecords.REASON_CODE).increment();
    }

    /** One event record through the {@link Intake}: dead-lettered, kept for admission, or its facts batched. */
    private String accept(ConsumerRecord<byte[], byte[]> record, List<Share> shares) {
        Intake.Outcome outcome = intake.accept(decoder.decode(record.topic(), record.headers(), record.value()));
        if (outcome instanceof Intake.Rejected rejected) {
            return deadLetter(record, rejected.code(), rejected.reason());
        }
        if (outcome instanceof Intake.Admission admission) {
            FairledgerEvent event = admission.event();
            // a registry-framed record is kept in single-object encoding, which reads without the registry
            boolean framed = EventDecoder.isRegistryFramed(record.headers(), record.value());
            shares.add(new Share(record, List.of(), new AdmissionRecord(event.cluster(), event.eventId(),
                    event.eventTime().toEpochMilli(), event.getClass().getSimpleName(),
                    framed ? EventDecoder.AVRO : contentType(record),
                    framed ? encoder.toAvro(event) : record.value())));
            return "admission";
        }
        Intake.Facts accepted = (Intake.Facts) outcome;
        knownStarts.saw(accepted.event(), accepted.facts());
        List<SourcedFact> facts = new ArrayList<>(accepted.facts().size());
        for (LedgerFact fact : accepted.facts()) {
            if (starts.known(fact)) {
                knownInBatch++;
            } else {
                facts.add(new SourcedFact(fact, accepted.event().eventId(), record.topic(), record.partition(),
                        record.offset()));
            }
        }
        if (!facts.isEmpty()) {
            shares.add(new Share(record, facts, null));
        }
        return accepted.facts().isEmpty() ? "ignored" : "accepted";
    }

    private String register(ConsumerRecord<byte[], byte[]> record) {
        String reason = registrations.apply(record.value());
        if (reason == null) {
            return "applied";
        }
        return deadLetter(record, reason.substring(0, reason.indexOf(':')), reason);
    }

    /** @param code a stable reason code (bounded set: the metric's tag), @param reason the header's full text */
    private String deadLetter(ConsumerRecord<byte[], byte[]> record, String code, String reason) {
        deadLetters.send(record, reason);
        ingestMeters.deadLetter(record.topic(), code);
        return "dead-letter";
    }

    private static String contentType(ConsumerRecord<byte[], byte[]> record) {
        Header header = record.headers().lastHeader(EventDecoder.CONTENT_TYPE_HEADER);
        return header == null ? null : new String(header.value(), java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * Tells Kafka the offsets just stored, so lag tools and autoscalers see progress; the consumer never reads them
     * back (it seeks to PostgreSQL's), so a commit that fails (a rebalance under way) is only logged.
     */
    private void commitToKafka(Map<TopicPartition, Long> next) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        next.forEach((tp, offset) -> offsets.put(tp, new OffsetAndMetadata(offset)));
        consumer.commitAsync(offsets, (committed, error) -> {
            if (error != null) {
                LOG.debugf("Offsets stored in PostgreSQL not committed to Kafka (%s)", error.getMessage());
            }
        });
    }

    /** Seeks on every assignment: the offsets that count are those committed with the facts. */
    private final class SeekToStoredOffsets implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            positions.assigned(partitions);
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            // the batch in flight commits (or fails, and is then read again) before the partitions go
            awaitInFlight();
            positions.forget(partitions);
            ingestMeters.forgetLag(partitions);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            onPartitionsRevoked(partitions);
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
