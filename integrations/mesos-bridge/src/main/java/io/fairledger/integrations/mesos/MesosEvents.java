package io.fairledger.integrations.mesos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Turns what the Mesos operator API says into the plain-JSON events of kafka-schemas/: a {@code TaskStatus} into a
 * {@code MesosTaskStatus} (with the task's framework, role and resources, which a status does not carry), an agent into
 * a {@code CapacityChanged}. Ids and times come from Mesos (status uuid and timestamp, agent registration time), so
 * the same status seen live and again in a snapshot after a reconnect is the same event.
 */
final class MesosEvents {

    static final String TASKS = "fairledger.mesos.tasks";
    static final String CAPACITY = "fairledger.capacity";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What a status lacks and the task has: framework, role, resources. */
    record TaskInfo(String frameworkId, String taskId, String role, double cpus, double memMb, double gpus) {

        static TaskInfo of(JsonNode task) {
            String role = task.path("allocation_info").path("role").asText(null);
            double cpus = 0;
            double mem = 0;
            double gpus = 0;
            for (JsonNode r : task.path("resources")) {
                double value = r.path("scalar").path("value").asDouble(0);
                switch (r.path("name").asText()) {
                    case "cpus" -> cpus += value;
                    case "mem" -> mem += value;
                    case "gpus" -> gpus += value;
                    default -> {
                    }
                }
                if (role == null && r.hasNonNull("role") && !"*".equals(r.get("role").asText())) {
                    role = r.get("role").asText();
                }
            }
            return new TaskInfo(task.path("framework_id").path("value").asText(), task.path("task_id").path("value")
                    .asText(), role, cpus, mem, gpus);
        }
    }

    private MesosEvents() {
    }

    /** A {@code TaskStatus} of a known task; null when the status has no timestamp (none can be made up). */
    static String taskStatus(String cluster, TaskInfo task, JsonNode status) {
        if (!status.hasNonNull("timestamp")) {
            return null;
        }
        long eventTime = Math.round(status.get("timestamp").asDouble() * 1000);
        String state = status.path("state").asText();
        String uuid = status.path("uuid").asText(null);
        ObjectNode out = JSON.createObjectNode().put("type", "MesosTaskStatus")
                .put("eventId", "mesos:" + task.frameworkId() + ":" + task.taskId() + ":"
                        + (uuid != null ? uuid : state + ":" + eventTime))
                .put("cluster", cluster).put("eventTime", eventTime).put("frameworkId", task.frameworkId())
                .put("role", task.role()).put("taskId", task.taskId())
                .put("agentId", status.path("agent_id").path("value").asText(null))
                .put("executorId", status.path("executor_id").path("value").asText(null)).put("state", state)
                .put("cpus", task.cpus()).put("memMb", task.memMb()).put("gpus", task.gpus());
        out.put("statusUuid", uuid);
        return out.toString();
    }

    /** An agent registered (AGENT_ADDED, or present in a snapshot), from its total resources. */
    static String agentAdded(String cluster, JsonNode agent) {
        JsonNode info = agent.path("agent_info");
        String id = info.path("id").path("value").asText();
        long nanos = Math.max(agent.path("registered_time").path("nanoseconds").asLong(0),
                agent.path("reregistered_time").path("nanoseconds").asLong(0));
        long at = nanos / 1_000_000;
        JsonNode resources = agent.path("total_resources").isEmpty()
                ? info.path("resources")
                : agent.path("total_resources");
        double cpus = 0;
        double mem = 0;
        double gpus = 0;
        for (JsonNode r : resources) {
            double value = r.path("scalar").path("value").asDouble(0);
            switch (r.path("name").asText()) {
                case "cpus" -> cpus += value;
                case "mem" -> mem += value;
                case "gpus" -> gpus += value;
                default -> {
                }
            }
        }
        return capacity(cluster, "mesos:" + cluster + ":agent:" + id + ":added:" + at, at, "NODE_ADDED", id, cpus,
                mem, gpus);
    }

    /** An agent left (AGENT_REMOVED, or missing from a snapshot) at {@code at}. */
    static String agentRemoved(String cluster, String agentId, long at) {
        return capacity(cluster, "mesos:" + cluster + ":agent:" + agentId + ":removed:" + at, at, "NODE_REMOVED",
                agentId, 0, 0, 0);
    }

    private static String capacity(String cluster, String eventId, long at, String change, String node, double cpus,
            double mem, double gpus) {
        return JSON.createObjectNode().put("type", "CapacityChanged").put("eventId", eventId).put("cluster", cluster)
                .put("eventTime", at).put("change", change).put("node", node).put("cpus", cpus)
                .put("memoryMb", Math.round(mem)).put("gpus", gpus).toString();
    }
}
