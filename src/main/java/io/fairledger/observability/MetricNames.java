package io.fairledger.observability;

/** Every metric and tag name fairledger publishes, in one place (documented in docs/metrics.md). */
public final class MetricNames {

    /** Counter: records read from Kafka, by {@link #TOPIC} and {@link #OUTCOME} (applied, duplicate, dead-letter). */
    public static final String INGEST_EVENTS = "fairledger.ingest.events";

    public static final String TOPIC = "topic";
    public static final String OUTCOME = "outcome";

    private MetricNames() {
    }
}
