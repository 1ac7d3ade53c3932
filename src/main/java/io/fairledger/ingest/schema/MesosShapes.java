package io.fairledger.ingest.schema;

import java.time.DateTimeException;
import java.time.OffsetDateTime;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Maps the JSON shapes Mesos itself emits onto the plain JSON of {@code MesosTaskStatus}, so a bridge can forward them
 * unchanged, adding only {@code cluster} at the top level. Accepted shapes:
 * <ul>
 * <li>operator API {@code {"type":"TASK_UPDATED","task_updated":{...}}}, both as documented in operator-http-api.md
 * ({@code task_id, framework_id, agent_id, executor_id, state}) and as master.proto defines it
 * ({@code framework_id, status: TaskStatus, state}); with a status, {@code status.state} is the state (the top-level
 * {@code state} is the last one the scheduler acknowledged);</li>
 * <li>operator API {@code {"type":"TASK_ADDED","task_added":{"task":{...}}}}, whose Task carries the resources (state
 * TASK_STAGING when the task has none);</li>
 * <li>scheduler API {@code {"type":"UPDATE","update":{"status":TaskStatus}}} and a bare master.proto
 * {@code TaskStatus} ({@code task_id, state, timestamp, agent_id, uuid, ...}).</li>
 * </ul>
 * Top-level fairledger fields ({@code cluster, eventId, eventTime, frameworkId, role, agentId, executorId, cpus, memMb,
 * gpus, statusUuid}) are kept and win over what the Mesos shape says. Without {@code eventTime} the TaskStatus {@code timestamp} (float seconds) is
 * used; without {@code eventId} one is derived from framework, task and status uuid (or state and time), so a
 * redelivered status gets the same id.
 */
final class MesosShapes {

    private static final Set<String> ENVELOPE = Set.of("cluster", "eventId", "eventTime", "frameworkId", "role",
            "agentId", "executorId", "cpus", "memMb", "gpus", "statusUuid");

    /** The {@code type} values of the Mesos shapes. */
    private static final Set<String> TYPES = Set.of("TASK_UPDATED", "TASK_ADDED", "UPDATE");

    private MesosShapes() {
    }

    /** Whether {@code root} is one of the Mesos shapes rather than the plain fairledger JSON. */
    static boolean isMesosShape(JsonNode root) {
        JsonNode type = root.get("type");
        if (type != null) {
            return type.isTextual() && TYPES.contains(type.textValue());
        }
        return root.has("task_id");
    }

    /** The plain {@code MesosTaskStatus} JSON for a Mesos-shaped {@code root}. */
    static ObjectNode toPlain(JsonNode root) throws RejectedException {
        ObjectNode plain = JsonNodeFactory.instance.objectNode();
        String type = root.path("type").asText("");
        switch (type) {
            case "TASK_UPDATED" -> taskUpdated(object(root, "task_updated", "task_updated"), plain);
            case "TASK_ADDED" -> taskAdded(object(object(root, "task_added", "task_added"), "task", "task_added.task"),
                    plain);
            case "UPDATE" -> status(object(object(root, "update", "update"), "status", "update.status"), plain);
            default -> status(root, plain);
        }
        root.fields().forEachRemaining(member -> {
            if (ENVELOPE.contains(member.getKey())) {
                plain.set(member.getKey(), member.getValue());
            }
        });
        if (!plain.path("frameworkId").isTextual()) {
            throw new RejectedException(Rejection.Reason.MISSING_FIELD, "frameworkId",
                    "the Mesos event has no framework_id; add frameworkId at the top level");
        }
        if (!plain.path("taskId").isTextual()) {
            throw new RejectedException(Rejection.Reason.MISSING_FIELD, "taskId", "the Mesos event has no task_id");
        }
        if (!plain.has("eventId")) {
            plain.put("eventId", derivedEventId(plain));
        }
        return plain;
    }

    private static void taskUpdated(JsonNode body, ObjectNode plain) throws RejectedException {
        copyId(body, "framework_id", plain, "frameworkId");
        JsonNode status = body.get("status");
        if (status != null && status.isObject()) {
            status(status, plain);
            if (!plain.has("state")) {
                copyText(body, "state", plain, "state");
            }
        } else {
            copyId(body, "task_id", plain, "taskId");
            copyId(body, "agent_id", plain, "agentId");
            copyId(body, "executor_id", plain, "executorId");
            copyText(body, "state", plain, "state");
        }
    }

    private static void taskAdded(JsonNode task, ObjectNode plain) {
        copyId(task, "task_id", plain, "taskId");
        copyId(task, "framework_id", plain, "frameworkId");
        copyId(task, "agent_id", plain, "agentId");
        copyId(task, "executor_id", plain, "executorId");
        copyText(task, "role", plain, "role");
        if (task.hasNonNull("state")) {
            copyText(task, "state", plain, "state");
        } else {
            plain.put("state", MesosTaskState.TASK_STAGING.name());
        }
        JsonNode resources = task.path("resources");
        for (JsonNode resource : resources) {
            String name = resource.path("name").asText("");
            JsonNode amount = resource.path("scalar").path("value");
            String field = switch (name) {
                case "cpus" -> "cpus";
                case "mem" -> "memMb";
                case "gpus" -> "gpus";
                default -> null;
            };
            if (field != null && amount.isNumber()) {
                double sum = plain.path(field).asDouble(0) + amount.doubleValue();
                plain.put(field, sum);
            }
            if (!plain.has("role")) {
                JsonNode role = resource.path("allocation_info").path("role");
                if (!role.isTextual()) {
                    role = resource.path("role");
                }
                if (role.isTextual()) {
                    plain.put("role", role.textValue());
                }
            }
        }
        JsonNode latest = null;
        for (JsonNode status : task.path("statuses")) {
            if (status.path("timestamp").isNumber()
                    && (latest == null || status.get("timestamp").doubleValue() > latest.doubleValue())) {
                latest = status.get("timestamp");
            }
        }
        if (latest != null) {
            plain.put("eventTime", secondsToMillis(latest.doubleValue()));
        }
    }

    private static void status(JsonNode status, ObjectNode plain) throws RejectedException {
        copyId(status, "task_id", plain, "taskId");
        copyId(status, "agent_id", plain, "agentId");
        copyId(status, "executor_id", plain, "executorId");
        copyText(status, "state", plain, "state");
        copyText(status, "uuid", plain, "statusUuid");
        JsonNode timestamp = status.get("timestamp");
        if (timestamp != null && !timestamp.isNull()) {
            if (!timestamp.isNumber() || !Double.isFinite(timestamp.doubleValue())) {
                throw new RejectedException(Rejection.Reason.INVALID_FIELD, "status.timestamp",
                        "expected seconds since the epoch as a number, got " + timestamp);
            }
            plain.put("eventTime", secondsToMillis(timestamp.doubleValue()));
        }
    }

    private static String derivedEventId(ObjectNode plain) {
        String prefix = "mesos:" + plain.get("frameworkId").textValue() + ":" + plain.get("taskId").textValue() + ":";
        if (plain.path("statusUuid").isTextual()) {
            return prefix + plain.get("statusUuid").textValue();
        }
        return prefix + plain.path("state").asText("") + ":" + epochMillis(plain.path("eventTime"));
    }

    /** The event time as epoch milliseconds whichever way it was written, so the derived id does not depend on it. */
    private static String epochMillis(JsonNode eventTime) {
        if (eventTime.isTextual()) {
            try {
                return Long.toString(OffsetDateTime.parse(eventTime.textValue()).toInstant().toEpochMilli());
            } catch (DateTimeException | ArithmeticException e) {
                return eventTime.textValue();
            }
        }
        return eventTime.asText("");
    }

    private static long secondsToMillis(double seconds) {
        return Math.round(seconds * 1000.0);
    }

    private static JsonNode object(JsonNode parent, String member, String path) throws RejectedException {
        JsonNode node = parent.get(member);
        if (node == null || node.isNull()) {
            throw new RejectedException(Rejection.Reason.MISSING_FIELD, path, "required member is absent");
        }
        if (!node.isObject()) {
            throw new RejectedException(Rejection.Reason.INVALID_FIELD, path, "expected an object");
        }
        return node;
    }

    private static void copyId(JsonNode from, String member, ObjectNode to, String field) {
        JsonNode id = from.get(member);
        if (id != null && id.isObject()) {
            id = id.get("value");
        }
        if (id != null && !id.isNull()) {
            to.set(field, id);
        }
    }

    private static void copyText(JsonNode from, String member, ObjectNode to, String field) {
        JsonNode value = from.get(member);
        if (value != null && !value.isNull()) {
            to.set(field, value);
        }
    }
}
