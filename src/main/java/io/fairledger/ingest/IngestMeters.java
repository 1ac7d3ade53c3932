package io.fairledger.ingest;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

import io.fairledger.observability.MetricNames;

/**
 * The consumer's meters: records by topic and outcome, dead letters by topic and reason code, and its own lag (log end
 * offset minus its position) of each assigned partition, as last fetched: one gauge per assigned partition, removed
 * when the partition is revoked. Used on the consumer thread.
 */
final class IngestMeters {

    private final MeterRegistry meters;
    private final Map<TopicPartition, AtomicLong> lags = new ConcurrentHashMap<>();
    private final Map<TopicPartition, Gauge> gauges = new HashMap<>();
    private final Map<String, Counter> counters = new HashMap<>();

    IngestMeters(MeterRegistry meters) {
        this.meters = meters;
    }

    /** Counts one record of {@code topic} with its {@code outcome}. */
    void count(String topic, String outcome) {
        counters.computeIfAbsent(topic + '\n' + outcome, k -> meters.counter(MetricNames.INGEST_EVENTS,
                MetricNames.TOPIC, topic, MetricNames.OUTCOME, outcome)).increment();
    }

    /** Counts one dead letter of {@code topic} with its stable reason {@code code}. */
    void deadLetter(String topic, String code) {
        counters.computeIfAbsent("dlq\n" + topic + '\n' + code, k -> meters.counter(MetricNames.INGEST_DEAD_LETTERS,
                MetricNames.TOPIC, topic, MetricNames.REASON, code)).increment();
    }

    /** Publishes the lag of every partition assigned to {@code consumer} that has one. */
    void publishLag(KafkaConsumer<?, ?> consumer) {
        for (TopicPartition tp : consumer.assignment()) {
            OptionalLong lag = consumer.currentLag(tp);
            if (lag.isPresent()) {
                lags.computeIfAbsent(tp, this::gauge).set(lag.getAsLong());
            }
        }
    }

    /** Removes the gauges of partitions no longer assigned. */
    void forgetLag(Collection<TopicPartition> partitions) {
        for (TopicPartition tp : partitions) {
            lags.remove(tp);
            Gauge gauge = gauges.remove(tp);
            if (gauge != null) {
                meters.remove(gauge);
            }
        }
    }

    private AtomicLong gauge(TopicPartition tp) {
        AtomicLong value = new AtomicLong();
        gauges.put(tp, Gauge.builder(MetricNames.INGEST_CONSUMER_LAG, value, AtomicLong::doubleValue)
                .tag(MetricNames.TOPIC, tp.topic()).tag(MetricNames.PARTITION, Integer.toString(tp.partition()))
                .description("records not yet read (a base unit would suffix the name docs/metrics.md fixes)")
                .register(meters));
        return value;
    }
}
