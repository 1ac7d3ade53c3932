package io.fairledger.ingest.schema;

import java.time.Instant;

/**
 * An event decoded from one of the fairledger event topics (schemas in {@code kafka-schemas/}). Every event has an id
 * that makes redeliveries recognisable, the cluster that emitted it and the time it happened at the source.
 */
public sealed interface FairledgerEvent permits YarnContainerEvent, MesosTaskStatus, JobSubmitted, JobFinished,
        DemandReported, CapacityChanged, WorkflowSubmitted {

    /** Unique id of the event; a redelivery carries the same id. */
    String eventId();

    /** Id of the cluster that emitted the event. */
    String cluster();

    /** When the event happened at the source. */
    Instant eventTime();
}
