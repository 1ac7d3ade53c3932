package io.fairledger.ingest.schema;

import java.util.List;

/** The Kafka topics that carry fairledger events. All are keyed by cluster id. */
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

    private EventTopics() {
    }
}
