package io.fairledger.ingest.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.fairledger.testsupport.SharedData;

/**
 * The real resource-manager samples in ../shared/data/formats (read in place, never copied) fit the schemas: Mesos
 * events forwarded unchanged plus the cluster decode, and AHS containers map field by field onto YarnContainerEvent.
 */
@Tag(SharedData.TAG)
class RealSamplesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final EventDecoder decoder = TestEvents.decoder();

    @Test
    void mesosTaskUpdatedAsDocumented() throws IOException {
        ObjectNode event = sample("mesos", "operator_TASK_UPDATED_Event.json");
        event.put("cluster", "mesos-1").put("eventTime", "2026-11-22T09:00:00Z");
        MesosTaskStatus status = decodeMesos(event);
        assertThat(status.taskId()).isEqualTo("42154f1b-adcd-4421-bf13-8bd11adfafaf");
        assertThat(status.frameworkId()).isEqualTo("49154f1b-8cf6-4421-bf13-8bd11dccd1f1");
        assertThat(status.agentId()).isEqualTo("2915adf-8aff-4421-bf13-afdafaf1f1");
        assertThat(status.executorId()).isEqualTo("adfaf-adff-2421-bf13-adf23tafa21");
        assertThat(status.state()).isEqualTo(MesosTaskState.TASK_RUNNING);
    }

    @Test
    void mesosSchedulerUpdateCarriesATaskStatus() throws IOException {
        ObjectNode event = sample("mesos", "scheduler_UPDATE_Event.json");
        event.put("cluster", "mesos-1").put("eventTime", "2026-11-22T09:00:00Z").put("frameworkId", "f-1");
        MesosTaskStatus status = decodeMesos(event);
        assertThat(status.taskId()).isEqualTo("12344-my-task");
        assertThat(status.statusUuid()).isEqualTo("adfadfadbhgvjayd23r2uahj");
        assertThat(status.eventId()).isEqualTo("mesos:f-1:12344-my-task:adfadfadbhgvjayd23r2uahj");
    }

    @Test
    void mesosTaskAddedAsDocumented() throws IOException {
        ObjectNode event = sample("mesos", "operator_TASK_ADDED_Event.json");
        event.put("cluster", "mesos-1").put("eventTime", "2026-11-22T09:00:00Z").put("frameworkId", "f-1");
        MesosTaskStatus status = decodeMesos(event);
        assertThat(status.taskId()).isEqualTo("d40f3f3e-bbe3-44af-a230-4cb1eae72f67");
        assertThat(status.state()).isEqualTo(MesosTaskState.TASK_STAGING);
    }

    @Test
    void mesosTasksOfGetTasksAreTaskAddedBodies() throws IOException {
        ObjectNode response = sample("mesos", "operator_GET_TASKS_HTTP_Response.json");
        JsonNode task = response.get("get_tasks").get("tasks").get(0);
        ObjectNode event = JSON.createObjectNode().put("cluster", "mesos-1").put("type", "TASK_ADDED");
        event.putObject("task_added").set("task", task);
        MesosTaskStatus status = decodeMesos(event);
        assertThat(status.cpus()).isEqualTo(2.0);
        assertThat(status.memMb()).isEqualTo(1024.0);
        assertThat(status.role()).isEqualTo("*");
        assertThat(status.state()).isEqualTo(MesosTaskState.TASK_RUNNING);
        assertThat(status.eventTime().toEpochMilli()).as("the latest status timestamp").isEqualTo(1470820172326L);
    }

    @Test
    void yarnAhsContainersMapOntoYarnContainerEvent() throws IOException {
        ObjectNode ahs = sample("yarn", "ahs_v1_containers.json");
        List<YarnContainerEvent> events = new ArrayList<>();
        for (JsonNode container : ahs.get("container")) {
            String containerId = container.get("containerId").asText();
            String[] parts = containerId.split("_");
            ObjectNode event = JSON.createObjectNode().put("eventId", containerId + "-finished")
                    .put("cluster", "yarn-1").put("eventTime", container.get("finishedTime").asLong())
                    .put("applicationId", "application_" + parts[1] + "_" + parts[2])
                    .put("attemptId", "appattempt_" + parts[1] + "_" + parts[2] + "_0000" + parts[3])
                    .put("containerId", containerId).put("queue", "root.default").put("user", "zshen")
                    .put("allocatedMemoryMb", container.get("allocatedMB").asLong())
                    .put("allocatedVcores", container.get("allocatedVCores").asInt())
                    .put("node", container.get("assignedNodeId").asText())
                    .put("state", container.get("containerState").asText())
                    .put("exitStatus", container.get("containerExitStatus").asInt())
                    .put("startedTime", container.get("startedTime").asLong())
                    .put("finishedTime", container.get("finishedTime").asLong());
            Decoded decoded = decoder.decode(EventTopics.YARN_CONTAINERS, EventDecoder.JSON,
                    JSON.writeValueAsBytes(event));
            assertThat(decoded).as(containerId).isInstanceOf(Decoded.Ok.class);
            events.add((YarnContainerEvent) ((Decoded.Ok) decoded).event());
        }
        assertThat(events).hasSize(7).allSatisfy(e -> {
            assertThat(e.state()).isEqualTo(YarnContainerState.COMPLETE);
            assertThat(e.allocatedMemoryMb()).isPositive();
        });
        assertThat(events.get(0).exitStatus()).isEqualTo(-105);
        assertThat(events.get(0).applicationId()).isEqualTo("application_1430424020775_0001");
    }

    private MesosTaskStatus decodeMesos(ObjectNode event) throws IOException {
        Decoded decoded = decoder.decode(EventTopics.MESOS_TASKS, EventDecoder.JSON, JSON.writeValueAsBytes(event));
        assertThat(decoded).as(event.toString()).isInstanceOf(Decoded.Ok.class);
        return (MesosTaskStatus) ((Decoded.Ok) decoded).event();
    }

    private static ObjectNode sample(String kind, String file) throws IOException {
        Path path = SchemaTestFiles.sharedFormats(kind).resolve(file);
        assertThat(path).as("real sample").exists();
        return (ObjectNode) JSON.readTree(Files.readAllBytes(path));
    }
}
