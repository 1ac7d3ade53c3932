package io.fairledger.ingest;

/** Kafka topic names and record headers, in one place. Topics are keyed by cluster id. */
public final class Topics {

    /** Cluster and tenant registrations, JSON. */
    public static final String REGISTRATIONS = "fairledger.registrations";
    /** Where records that cannot be applied go, with their original bytes. */
    public static final String DEAD_LETTERS = "fairledger.dead-letters";
    /** Header on a dead letter: why it was rejected. */
    public static final String REASON_HEADER = "fairledger.dlq.reason";
    /** Header on a dead letter: the topic it came from. */
    public static final String SOURCE_TOPIC_HEADER = "fairledger.dlq.source-topic";

    private Topics() {
    }
}
