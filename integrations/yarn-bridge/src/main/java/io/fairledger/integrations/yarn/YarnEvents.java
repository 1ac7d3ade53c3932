package io.fairledger.integrations.yarn;

import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceInformation;

/**
 * The events of kafka-schemas/ built from what the ResourceManager knows, in their plain-JSON encoding. Event ids are
 * derived from YARN's own ids and times, so a resent event has the id it had the first time.
 */
public final class YarnEvents {

    public static final String CONTAINERS = "fairledger.yarn.containers";
    public static final String CAPACITY = "fairledger.capacity";
    public static final String DEMAND = "fairledger.demand";

    /** The resource name YARN uses for GPUs (yarn.io/gpu). */
    static final String GPU = ResourceInformation.GPU_URI;

    private YarnEvents() {
    }

    /** A container as the scheduler records it; times are the ResourceManager's epoch milliseconds. */
    public record Container(String applicationId, String attemptId, String containerId, String queue, String user,
            Resource resource, String node, long createdTime) {
    }

    /**
     * A container that the ResourceManager handed to its application master (state ACQUIRED): it holds its resources
     * from {@code createdTime}, the instant YARN's {@code memorySeconds} counts from.
     */
    public static String acquired(String cluster, Container c, long eventTime) {
        return container(cluster, c, "ACQUIRED", eventTime).putNullable("exitStatus", null)
                .put("createdTime", c.createdTime()).toString();
    }

    /**
     * A container that reached a final ResourceManager state (COMPLETED, KILLED, RELEASED, EXPIRED) at
     * {@code finishedTime}; it carries {@code createdTime} too, so the finish alone also accounts the start.
     */
    public static String finished(String cluster, Container c, String state, Integer exitStatus, long finishedTime) {
        return container(cluster, c, state, finishedTime)
                .putNullable("exitStatus", exitStatus == null ? null : exitStatus.longValue())
                .put("createdTime", c.createdTime()).put("finishedTime", finishedTime).toString();
    }

    /** A node registered (NODE_ADDED) or left (NODE_REMOVED) with its total capability. */
    public static String node(String cluster, String change, String node, Resource capability, long eventTime) {
        return new JsonObject().put("type", "CapacityChanged")
                .put("eventId", "yarn:" + cluster + ":node:" + node + ":" + change + ":" + eventTime)
                .put("cluster", cluster).putTime("eventTime", eventTime).put("change", change).put("node", node)
                .put("cpus", (double) capability.getVirtualCores()).put("memoryMb", capability.getMemorySize())
                .put("gpus", (double) gpus(capability)).toString();
    }

    /** A leaf queue's pending resources (demand not yet allocated). */
    public static String demand(String cluster, String queue, Resource pending, long eventTime) {
        return new JsonObject().put("type", "DemandReported")
                .put("eventId", "yarn:" + cluster + ":demand:" + queue + ":" + eventTime).put("cluster", cluster)
                .putTime("eventTime", eventTime).put("tenant", queue).put("applicationId", null)
                .put("pendingCpus", (double) Math.max(0, pending.getVirtualCores()))
                .put("pendingMemoryMb", Math.max(0, pending.getMemorySize()))
                .put("pendingGpus", (double) Math.max(0, gpus(pending))).toString();
    }

    static long gpus(Resource resource) {
        for (ResourceInformation info : resource.getResources()) {
            if (GPU.equals(info.getName())) {
                return info.getValue();
            }
        }
        return 0;
    }

    private static JsonObject container(String cluster, Container c, String state, long eventTime) {
        return new JsonObject().put("type", "YarnContainerEvent")
                .put("eventId", "yarn:" + cluster + ":" + c.containerId() + ":" + state).put("cluster", cluster)
                .putTime("eventTime", eventTime).put("applicationId", c.applicationId())
                .put("attemptId", c.attemptId()).put("containerId", c.containerId()).put("queue", c.queue())
                .put("user", c.user()).put("allocatedMemoryMb", c.resource().getMemorySize())
                .put("allocatedVcores", (long) c.resource().getVirtualCores())
                .put("allocatedGpus", gpus(c.resource())).put("node", c.node()).put("state", state);
    }
}
