package io.fairledger.ingest.schema;

import java.util.List;

/**
 * Every Kafka topic name and record header of fairledger, in one place: the event topics, registrations, dead letters
 * and admission decisions. All topics are keyed by cluster id.
 */
public final class EventTopics {

    /** {@link YarnContainerEvent}. */
    public static final String YARN_CONTAINERS = "fairledger.yarn.containers";
    /** {@link MesosTaskStatus}, also in the Mesos operator and TaskStatus JSON shapes. */
    public static final String MESOS_TASKS = "fairledger.mesos.tasks";
    /** {@link JobSubmitted} and {@link JobFinished}, on one topic so a job's events stay in order. */
    public static final String JOBS = "fairledger.jobs";
    /** {@link DemandReported}. */
    public static final String DEMAND = "fairledger.demand";
    /** {@link CapacityChanged}. */
    public static final String CAPACITY = "fairledger.capacity";
    /** {@link WorkflowSubmitted}. */
    public static final String WORKFLOWS = "fairledger.workflows";

    /** All event topics. */
    public static final List<String> ALL = List.of(YARN_CONTAINERS, MESOS_TASKS, JOBS, DEMAND, CAPACITY, WORKFLOWS);

    /** Cluster and tenant registrations, JSON. */
    public static final String REGISTRATIONS = "fairledger.registrations";
    /** Where records that cannot be applied go, with their original bytes. */
    public static final String DEAD_LETTERS = "fairledger.dead-letters";
    /** Header on a dead letter: why it was rejected. */
    public static final String REASON_HEADER = "fairledger.dlq.reason";
    /** Header on a dead letter: the topic it came from. */
    public static final String SOURCE_TOPIC_HEADER = "fairledger.dlq.source-topic";
    /** Header on a dead letter: the partition it came from, in decimal. */
    public static final String SOURCE_PARTITION_HEADER = "fairledger.dlq.source-partition";
    /** Header on a dead letter: its offset in the source partition, in decimal. */
    public static final String SOURCE_OFFSET_HEADER = "fairledger.dlq.source-offset";
    /** Header on a dead letter: the source record's timestamp, milliseconds since the epoch in decimal. */
    public static final String SOURCE_TIMESTAMP_HEADER = "fairledger.dlq.source-timestamp";
    /** The prefix of every header fairledger adds to a dead letter; a re-driven record is sent without them. */
    public static final String DEAD_LETTER_HEADER_PREFIX = "fairledger.dlq.";
    /** The admission service's decisions, JSON, published for resource managers. */
    public static final String ADMISSION_DECISIONS = "fairledger.admission-decisions";

    private EventTopics() {
    }
}
