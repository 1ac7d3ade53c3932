package io.fairledger.ingest;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.opentelemetry.api.trace.Tracer;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.fairledger.config.FairledgerConfig;
import io.fairledger.core.model.PlainText;
import io.fairledger.facts.FactCursor;
import io.fairledger.facts.RetentionFloors;
import io.fairledger.ingest.registry.ConsumerDecoder;
import io.fairledger.ingest.schema.EventTopics;
import io.fairledger.kafka.KafkaClientConfig;
import io.fairledger.kafka.KafkaConnectionCheck;
import io.fairledger.observability.MetricNames;
import io.fairledger.tenancy.LedgerSettings;
import io.fairledger.tenancy.TenancyService;
import io.fairledger.tenancy.TenantView;

/**
 * The one consumer of the group: registrations and every event topic. It keeps the Kafka protocol (the poll loop,
 * rebalances, the commit pipeline); per batch, each event record goes through the {@link Intake} and each
 * registration through {@link Registrations} (idempotent, the admin API's own rules); ledger facts, admission
 * records and the offsets after the batch are committed to PostgreSQL in one transaction, and on every partition
 * assignment the consumer seeks to the offsets stored there ({@link StoredPositions}), so a crash or a rebalance loses
 * and double-counts nothing. The same offsets are then committed to Kafka too, for lag tools and autoscalers, but never
 * read back. A record that cannot be applied goes to the dead-letter topic with its reason before the batch commits,
 * and the consumer goes on; so does a record the database refuses ({@link PoisonRecords}); a batch that cannot be
 * committed (PostgreSQL down) is read again from the stored offsets after a pause. Decoding is {@link BatchDecoder}'s,
 * committing {@link CommitPipeline}'s; this class keeps the loop, the group membership and the positions.
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

    @Inject
    FairledgerConfig config;

    @Inject
    Tracer tracer;

    @ConfigProperty(name = "quarkus.otel.sdk.disabled", defaultValue = "false")
    boolean tracesOff;

    private volatile boolean running;
    private KafkaConsumer<byte[], byte[]> consumer;
    private DeadLetters deadLetters;
    private volatile Thread thread;
    private String groupId;
    private volatile IngestMeters ingestMeters;
    private BatchDecoder batches;
    /** The task starts the committed batches stored ({@link Batch#lessKnown}); consumer thread. */
    private CommittedStarts starts;
    private volatile CommitPipeline pipeline;
    private StoredPositions positions;
    private volatile ConsumerWaitingStarts waitingStarts;
    private Timer decodeTimer;
    private BatchTraces traces;
    /** What ended the consumer thread, if an exception did. */
    private volatile Throwable stoppedBy;

    void start(@Observes StartupEvent event) {
        String problem = KafkaConnectionCheck.problem(kafkaConfig);
        if (problem == null) {
            problem = CommittedStarts.problem(config.ingest().knownStarts(), Runtime.getRuntime().maxMemory());
        }
        if (problem != null) {
            throw new IllegalStateException("fairledger cannot consume events: " + problem);
        }
        groupId = groupId(kafkaConfig);
        FairledgerConfig.Ingest tuning = this.config.ingest();
        // a cluster's events share one partition: max.partition.fetch.bytes lets one fetch fill a whole batch
        Map<String, Object> defaults = new HashMap<>(KafkaClientConfig.MEMBERSHIP);
        defaults.putAll(Map.of(ConsumerConfig.GROUP_ID_CONFIG, groupId,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, tuning.maxPollRecords(),
                ConsumerConfig.FETCH_MIN_BYTES_CONFIG, tuning.fetchMinBytes(),
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, (int) tuning.fetchMaxWait().toMillis(),
                ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, tuning.maxPartitionFetchBytes()));
        // the offsets that count are PostgreSQL's; Kafka's are committed after each stored batch, for lag tools
        Map<String, Object> fixed = Map.of(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumer = new KafkaConsumer<>(KafkaClientConfig.consumer(kafkaConfig, defaults, fixed),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        waitingStarts = new ConsumerWaitingStarts(this::lateness,
                partitions -> store.waitingStarts(groupId, partitions));
        positions = new StoredPositions(consumer, store, groupId, RETRY_PAUSE, waitingStarts);
        deadLetters = new DeadLetters(kafkaConfig);
        decodeTimer = Timer.builder(MetricNames.INGEST_BATCH_DECODE).publishPercentileHistogram().register(meters);
        ingestMeters = new IngestMeters(meters);
        Gauge.builder(MetricNames.INGEST_WAITING_RECORDS, this, EventConsumer::waitingStarts)
                .description("Mesos task starts of this replica's partitions that wait for their resources")
                .register(meters);
        SourceTracker sources = new SourceTracker(meters, Clock.systemUTC());
        traces = BatchTraces.of(tracer, tracesOff);
        starts = new CommittedStarts(tuning.knownStarts());
        StoredStarts knownStarts = new StoredStarts(tuning.knownStarts(), factCursor);
        RegisteredClusters clusters = new RegisteredClusters(tenancy::registrations, retentionFloors::all);
        batches = new BatchDecoder(new BatchDecoder.Parts(ConsumerDecoder.of(tuning.registry(), Clock.systemUTC()),
                new Intake(clusters, knownStarts, TenantBound.of(this::registeredTenants)), clusters, knownStarts,
                starts, waitingStarts, registrations, deadLetters, ingestMeters));
        pipeline = new CommitPipeline(store, groupId, deadLetters, meters, committed -> {
            traces.committed(committed);
            sources.stored(committed);
            starts.committed(committed.facts());
            knownStarts.committed(committed.facts());
            deadLetters.stored(committed.next());
            commitToKafka(committed.next());
        });
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
     * {@code clusterId}'s allowed lateness, for the Mesos starts that wait for their resources, read in a transaction of
     * its own (the consumer thread has none).
     */
    private Duration lateness(String clusterId) {
        return QuarkusTransaction.requiringNew().call(() -> tenancy.hasLedgerSettings(clusterId)
                ? tenancy.ledgerSettings(clusterId).lateness()
                : LedgerSettings.DEFAULT_ALLOWED_LATENESS);
    }

    /** How many Mesos starts of this replica's partitions wait for their resources: the gauge's value. */
    private double waitingStarts() {
        ConsumerWaitingStarts waiting = waitingStarts;
        return waiting == null ? 0 : waiting.size();
    }

    /** The consumer group of every replica: {@code kafka.group.id}, {@code fairledger} by default. */
    static String groupId(Map<String, Object> kafkaConfig) {
        return String.valueOf(kafkaConfig.getOrDefault(ConsumerConfig.GROUP_ID_CONFIG, "fairledger"));
    }

    /** The topics the consumer subscribes to: every event topic and the registrations. */
    static List<String> topics() {
        List<String> topics = new ArrayList<>(EventTopics.ALL);
        topics.add(EventTopics.REGISTRATIONS);
        return topics;
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

    private void run() {
        try {
            consumer.subscribe(topics(), new SeekToStoredOffsets());
            while (running) {
                positions.positionWhenDue();
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(500));
                ingestMeters.publishLag(consumer);
                if (records.isEmpty()) {
                    if (!pipeline.previousCommitted()) {
                        readAgain();
                    }
                    continue;
                }
                Batch batch;
                traces.polled(records.count());
                Timer.Sample sample = Timer.start(meters);
                try {
                    batch = batches.decode(records);
                } catch (RuntimeException e) {
                    pipeline.previousCommitted();
                    pipeline.notDecoded(e);
                    readAgain();
                    continue;
                } finally {
                    sample.stop(decodeTimer);
                }
                traces.decoded(batch);
                if (!pipeline.previousCommitted()) {
                    readAgain();
                    continue;
                }
                traces.handedOver();
                pipeline.submit(batch.lessKnown(starts));
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
                pipeline.previousCommitted();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            pipeline.shutdown();
            consumer.close();
            deadLetters.close();
        }
    }

    /**
     * Nothing after the stored offsets is committed: pause every partition and read them again from the stored offsets
     * once the pause is over and the offsets can be read. Polling goes on meanwhile, so the consumer keeps its group
     * membership however long PostgreSQL is away.
     */
    private void readAgain() {
        Throwable cause = pipeline.takeFailure();
        traces.notStored(cause);
        // the cause's message may quote a record (a value the database refused): escaped, its trace at debug only
        LOG.errorf("Batch not stored (%s: %s); reading again from the stored offsets in %d s", StoreFailures.of(cause),
                cause == null ? "" : PlainText.escaped(StoreFailures.describe(cause)), RETRY_PAUSE.toSeconds());
        LOG.debug("The batch's failure", cause);
        positions.later(consumer.assignment());
    }

    /** The tenant paths registered for {@code clusterId}: what the tenant bound counts before its first event. */
    private List<String> registeredTenants(String clusterId) {
        return tenancy.tenants(clusterId).stream().map(TenantView::path).toList();
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
            try {
                pipeline.previousCommitted();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptException(e);
            }
            positions.forget(partitions);
            waitingStarts.forget(partitions);
            ingestMeters.forgetLag(partitions);
            deadLetters.forget(partitions);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            onPartitionsRevoked(partitions);
        }
    }
}
