package io.fairledger.observability;

/** Every metric and tag name fairledger publishes, in one place (documented in docs/metrics.md). */
public final class MetricNames {

    /**
     * Counter: records read from Kafka, by {@link #TOPIC} and {@link #OUTCOME}: applied (registrations), accepted
     * (ledger facts), ignored (no accounting meaning), admission (kept for the admission service), dead-letter, and
     * duplicate (facts already stored; topic "all").
     */
    public static final String INGEST_EVENTS = "fairledger.ingest.events";
    /** Timer: decoding, validating and normalising one polled batch, dead letters acknowledged. */
    public static final String INGEST_BATCH_DECODE = "fairledger.ingest.batch.decode";
    /** Timer: committing one batch's facts and offsets to PostgreSQL in one transaction. */
    public static final String INGEST_BATCH_COMMIT = "fairledger.ingest.batch.commit";

    public static final String TOPIC = "topic";
    public static final String OUTCOME = "outcome";

    private MetricNames() {
    }
}
