package io.fairledger.ingest;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.common.annotation.Identifier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import io.fairledger.config.FairledgerConfig;
import io.fairledger.kafka.SharedAdmin;
import io.fairledger.observability.MetricNames;

/**
 * What waits to be stored, for the whole consumer group and not one replica: the records of every partition of the
 * consumed topics (assigned to some replica, to none while the group rebalances, or to a replica that died) after the
 * offsets stored in {@code consumer_offset} with the facts ({@link BatchStore}; a partition without a stored offset
 * from its earliest record), against the end offsets Kafka reports. Ingestion is <em>stalled</em> when records wait
 * and the stored offsets, summed over the partitions, have not moved for {@code fairledger.ingest.stall-after}: by any
 * replica, so a replica without partitions reports the group's state too. Measured by the ingestion health check on
 * every call and every 15 s for the gauges {@value MetricNames#INGEST_BACKLOG} and {@value MetricNames#INGEST_STALL}.
 */
@ApplicationScoped
public class IngestionBacklog {

    private static final int TIMEOUT_SECONDS = 3;

    /** The state of ingestion as last measured. */
    public record State(long waiting, Duration sinceStored, boolean stalled) {
    }

    /** Records after the stored offsets, and the stored offsets summed (which grow with every stored batch). */
    record Position(long waiting, long stored) {
    }

    @Inject
    @Identifier("default-kafka-broker")
    Map<String, Object> kafkaConfig;

    @Inject
    SharedAdmin admin;

    @Inject
    BatchStore store;

    @Inject
    FairledgerConfig config;

    @Inject
    MeterRegistry meters;

    private final AtomicLong backlogGauge = new AtomicLong();
    private final AtomicLong stallGauge = new AtomicLong();
    private final StallClock stall = new StallClock(Instant.now());

    @PostConstruct
    void gauges() {
        Gauge.builder(MetricNames.INGEST_BACKLOG, backlogGauge, AtomicLong::doubleValue)
                .description("records of every partition of the consumed topics not yet stored").register(meters);
        Gauge.builder(MetricNames.INGEST_STALL, stallGauge, AtomicLong::doubleValue)
                .description("seconds records have waited while no batch was stored").register(meters);
    }

    @Scheduled(every = "15s", delayed = "15s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void refresh() {
        try {
            measure();
        } catch (Exception e) {
            // the health check names the failure; the gauges keep their last values
        }
    }

    /** Measures now and publishes the gauges; throws when Kafka or PostgreSQL cannot tell. */
    public State measure() throws Exception {
        Position position = position(admin.get(), store, EventConsumer.groupId(kafkaConfig), EventConsumer.topics());
        Duration since = stall.observe(position.waiting(), position.stored(), Instant.now());
        backlogGauge.set(position.waiting());
        stallGauge.set(since.toSeconds());
        return new State(position.waiting(), since, since.compareTo(config.ingest().stallAfter()) > 0);
    }

    /**
     * The records of {@code topics}' partitions after {@code groupId}'s stored offsets (from a partition's earliest
     * record when none is stored, or when retention has deleted records past it), and those offsets summed. Topics
     * that do not exist count 0.
     */
    static Position position(Admin admin, BatchStore store, String groupId, Collection<String> topics)
            throws SQLException, ExecutionException, InterruptedException, TimeoutException {
        List<TopicPartition> partitions = new ArrayList<>();
        for (Map.Entry<String, KafkaFuture<TopicDescription>> e : admin.describeTopics(topics).topicNameValues()
                .entrySet()) {
            try {
                for (TopicPartitionInfo p : e.getValue().get(TIMEOUT_SECONDS, TimeUnit.SECONDS).partitions()) {
                    partitions.add(new TopicPartition(e.getKey(), p.partition()));
                }
            } catch (ExecutionException missing) {
                if (!(missing.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw missing;
                }
            }
        }
        Map<TopicPartition, Long> end = offsets(admin, partitions, OffsetSpec.latest());
        Map<TopicPartition, Long> earliest = offsets(admin, partitions, OffsetSpec.earliest());
        Map<TopicPartition, Long> stored = store.offsets(groupId, partitions);
        long waiting = 0;
        long storedSum = 0;
        for (TopicPartition tp : partitions) {
            long from = Math.max(stored.getOrDefault(tp, 0L), earliest.get(tp));
            waiting += Math.max(0, end.get(tp) - from);
            storedSum += stored.getOrDefault(tp, 0L);
        }
        return new Position(waiting, storedSum);
    }

    private static Map<TopicPartition, Long> offsets(Admin admin, List<TopicPartition> partitions, OffsetSpec spec)
            throws ExecutionException, InterruptedException, TimeoutException {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        partitions.forEach(tp -> request.put(tp, spec));
        Map<TopicPartition, Long> out = new HashMap<>();
        for (Map.Entry<TopicPartition, ListOffsetsResultInfo> e : admin.listOffsets(request).all()
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS).entrySet()) {
            out.put(e.getKey(), e.getValue().offset());
        }
        return out;
    }

}
