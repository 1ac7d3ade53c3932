package io.fairledger.ingest.schema;

import java.time.Instant;

/**
 * A YARN container lifecycle transition (schema {@code kafka-schemas/YarnContainerEvent.avsc}).
 *
 * @param node the node the container is assigned to, host:port; null before allocation
 * @param exitStatus YARN container exit status; null while the container has not finished
 * @param createdTime when the ResourceManager created the container; null when unknown
 * @param startedTime when the container started; null when not started yet
 * @param finishedTime when the container finished; null while not finished
 */
public record YarnContainerEvent(String eventId, String cluster, Instant eventTime, String applicationId,
        String attemptId, String containerId, String queue, String user, long allocatedMemoryMb, int allocatedVcores,
        int allocatedGpus, String node, YarnContainerState state, Integer exitStatus, Instant createdTime,
        Instant startedTime, Instant finishedTime) implements FairledgerEvent {
}
