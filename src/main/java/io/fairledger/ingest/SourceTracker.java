package io.fairledger.ingest;

import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import io.fairledger.ingest.PoisonRecords.Share;
import io.fairledger.observability.MetricNames;

/**
 * Per cluster and source (an event topic's partition, {@code fairledger.yarn.containers-3}), the newest event time
 * stored and when this replica last stored an event: the gauges {@value MetricNames#SOURCE_LAST_EVENT_TIME} and
 * {@value MetricNames#SOURCE_LAST_RECEIVED_TIME}, in epoch seconds, that the alert {@code FairledgerSourceSilent}
 * watches (docs/metrics.md). A pair of gauges is made when a cluster's first event from a source is stored and kept
 * while the server runs, also after the partition moves to another replica (the rules take the newest over the
 * replicas); bridges key their events by cluster, so a cluster has one source per event topic it publishes to. Fed
 * with each committed batch on the consumer thread only; read by the scrape.
 */
final class SourceTracker {

    /** The newest event time and the last time stored of one cluster's events from one source, epoch millis. */
    private record Times(AtomicLong event, AtomicLong received) {
    }

    private final MeterRegistry meters;
    private final Clock clock;
    private final Map<String, Times> times = new HashMap<>();

    SourceTracker(MeterRegistry meters, Clock clock) {
        this.meters = meters;
        this.clock = clock;
    }

    /** The source label of a record: its topic and partition, as Kafka writes a partition. */
    static String source(ConsumerRecord<?, ?> record) {
        return record.topic() + '-' + record.partition();
    }

    /** Takes note of the events of a batch just committed: their clusters, sources and event times. */
    void stored(Batch committed) {
        long now = clock.millis();
        for (Share share : committed.shares()) {
            String source = source(share.source());
            if (share.admission() != null) {
                saw(share.admission().clusterId(), source, share.admission().eventTimeMs(), now);
            }
            share.facts().forEach(f -> saw(f.fact().clusterId(), source, f.fact().at(), now));
        }
    }

    private void saw(String cluster, String source, long eventTime, long now) {
        String key = cluster + '\n' + source;
        Times t = times.get(key);
        if (t == null) {
            // the values are set before the gauges exist, so no scrape sees a source without them
            times.put(key, register(cluster, source, new Times(new AtomicLong(eventTime), new AtomicLong(now))));
            return;
        }
        t.event().accumulateAndGet(eventTime, Math::max);
        t.received().set(now);
    }

    private Times register(String cluster, String source, Times t) {
        Gauge.builder(MetricNames.SOURCE_LAST_EVENT_TIME, t.event(), v -> v.get() / 1000.0)
                .description("event time of the newest event stored from the source").tag(MetricNames.CLUSTER, cluster)
                .tag(MetricNames.SOURCE, source).register(meters);
        Gauge.builder(MetricNames.SOURCE_LAST_RECEIVED_TIME, t.received(), v -> v.get() / 1000.0)
                .description("when this replica last stored an event from the source").tag(MetricNames.CLUSTER, cluster)
                .tag(MetricNames.SOURCE, source).register(meters);
        return t;
    }
}
