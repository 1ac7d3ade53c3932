package io.fairledger.integrations.mesos;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class MesosEventsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aStatusTakesItsIdAndTimeFromMesosAndItsSizeFromTheTask() throws Exception {
        JsonNode task = JSON.readTree("{\"task_id\":{\"value\":\"1\"},\"framework_id\":{\"value\":\"fw\"},"
                + "\"resources\":[{\"name\":\"cpus\",\"role\":\"*\",\"scalar\":{\"value\":2.0},\"type\":\"SCALAR\"},"
                + "{\"name\":\"mem\",\"role\":\"*\",\"scalar\":{\"value\":1024.0},\"type\":\"SCALAR\"},"
                + "{\"name\":\"ports\",\"ranges\":{\"range\":[{\"begin\":31000,\"end\":32000}]},\"type\":\"RANGES\"}],"
                + "\"allocation_info\":{\"role\":\"analytics\"}}");
        JsonNode status = JSON.readTree("{\"task_id\":{\"value\":\"1\"},\"state\":\"TASK_RUNNING\","
                + "\"agent_id\":{\"value\":\"S0\"},\"timestamp\":1470820172.32565,\"uuid\":\"ycLTRBo8TjKFTrh4vsBERg==\"}");
        JsonNode event = JSON.readTree(MesosEvents.taskStatus("c1", MesosEvents.TaskInfo.of(task), status));
        assertThat(event.get("eventId").asText()).isEqualTo("mesos:fw:1:ycLTRBo8TjKFTrh4vsBERg==");
        assertThat(event.get("eventTime").asLong()).isEqualTo(1470820172326L);
        assertThat(event.get("role").asText()).isEqualTo("analytics");
        assertThat(event.get("cpus").asDouble()).isEqualTo(2.0);
        assertThat(event.get("memMb").asDouble()).isEqualTo(1024.0);
        assertThat(event.get("agentId").asText()).isEqualTo("S0");
    }

    @Test
    void aStatusWithoutATimestampIsNotMadeUp() throws Exception {
        JsonNode task = JSON.readTree("{\"task_id\":{\"value\":\"1\"},\"framework_id\":{\"value\":\"fw\"}}");
        JsonNode status = JSON.readTree("{\"task_id\":{\"value\":\"1\"},\"state\":\"TASK_RUNNING\"}");
        assertThat(MesosEvents.taskStatus("c1", MesosEvents.TaskInfo.of(task), status)).isNull();
    }
}
