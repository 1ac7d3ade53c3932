package io.fairledger.ingest.schema;

/**
 * State of a YARN container: the union of YARN's {@code ContainerState} and the ResourceManager's
 * {@code RMContainerState}. {@link #UNKNOWN} is what an Avro reader gets for a symbol added in a later schema version;
 * the decoder rejects events in that state.
 */
public enum YarnContainerState {
    NEW, RESERVED, ALLOCATED, ACQUIRED, SCHEDULED, RUNNING, COMPLETE, COMPLETED, EXPIRED, RELEASED, KILLED, UNKNOWN
}
