package io.fairledger.ingest.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.fairledger.ingest.schema.Rejection.Reason;

/**
 * The Mesos shapes (operator TASK_UPDATED as documented and as master.proto defines it, TASK_ADDED, scheduler UPDATE,
 * bare TaskStatus) decode to the same MesosTaskStatus as the plain fairledger JSON. Fixtures are written here,
 * modelled on the upstream documentation examples.
 */
class MesosShapesTest {

    private static final String FRAMEWORK = "49154f1b-8cf6-4421-bf13-8bd11dccd1f1";
    private static final String TASK = "42154f1b-adcd-4421-bf13-8bd11adfafaf";
    private static final String AGENT = "2915adf-8aff-4421-bf13-afdafaf1f1";

    private final EventDecoder decoder = TestEvents.decoder();

    private final MesosTaskStatus expected = new MesosTaskStatus("ev-1", "mesos-1",
            Instant.parse("2026-11-22T09:00:00.250Z"), FRAMEWORK, null, TASK, AGENT, null, MesosTaskState.TASK_RUNNING,
            null, null, null, "uuid-7");

    @Test
    void plainShape() {
        assertThat(decode("{\"eventId\":\"ev-1\",\"cluster\":\"mesos-1\",\"eventTime\":\"2026-11-22T09:00:00.250Z\","
                + "\"frameworkId\":\"" + FRAMEWORK + "\",\"taskId\":\"" + TASK + "\",\"agentId\":\"" + AGENT + "\","
                + "\"state\":\"TASK_RUNNING\",\"statusUuid\":\"uuid-7\"}")).isEqualTo(expected);
    }

    @Test
    void taskUpdatedAsMasterProtoDefinesIt() {
        assertThat(decode("{\"eventId\":\"ev-1\",\"cluster\":\"mesos-1\",\"type\":\"TASK_UPDATED\",\"task_updated\":{"
                + "\"framework_id\":{\"value\":\"" + FRAMEWORK + "\"},\"status\":{\"task_id\":{\"value\":\"" + TASK
                + "\"},\"state\":\"TASK_RUNNING\",\"source\":\"SOURCE_EXECUTOR\",\"agent_id\":{\"value\":\"" + AGENT
                + "\"},\"timestamp\":1795338000.25,\"uuid\":\"uuid-7\"},\"state\":\"TASK_STARTING\"}}"))
                .as("status.state is the new state; the top-level state is the last acknowledged one")
                .isEqualTo(expected);
    }

    @Test
    void taskUpdatedAsTheOperatorApiDocumentsIt() {
        assertThat(decode("{\"eventId\":\"ev-1\",\"cluster\":\"mesos-1\",\"eventTime\":1795338000250,"
                + "\"statusUuid\":\"uuid-7\",\"type\":\"TASK_UPDATED\",\"task_updated\":{\"task_id\":{\"value\":\""
                + TASK + "\"},\"framework_id\":{\"value\":\"" + FRAMEWORK + "\"},\"agent_id\":{\"value\":\"" + AGENT
                + "\"},\"state\":\"TASK_RUNNING\"}}")).isEqualTo(expected);
    }

    @Test
    void schedulerUpdateAndBareTaskStatus() {
        String status = "{\"task_id\":{\"value\":\"" + TASK
                + "\"},\"state\":\"TASK_RUNNING\",\"agent_id\":{\"value\":\""
                + AGENT + "\"},\"timestamp\":1795338000.25,\"uuid\":\"uuid-7\"}";
        String envelope = "\"eventId\":\"ev-1\",\"cluster\":\"mesos-1\",\"frameworkId\":\"" + FRAMEWORK + "\"";
        assertThat(decode("{" + envelope + ",\"type\":\"UPDATE\",\"update\":{\"status\":" + status + "}}"))
                .isEqualTo(expected);
        assertThat(decode("{" + envelope + "," + status.substring(1))).isEqualTo(expected);
    }

    @Test
    void taskAddedCarriesResourcesAndRole() {
        MesosTaskStatus added = decode("{\"cluster\":\"mesos-1\",\"eventTime\":\"2026-11-22T09:00:00Z\","
                + "\"type\":\"TASK_ADDED\",\"task_added\":{\"task\":{\"name\":\"t\",\"task_id\":{\"value\":\"" + TASK
                + "\"},\"framework_id\":{\"value\":\"" + FRAMEWORK + "\"},\"agent_id\":{\"value\":\"" + AGENT + "\"},"
                + "\"resources\":[{\"name\":\"cpus\",\"type\":\"SCALAR\",\"scalar\":{\"value\":1.5},\"role\":\"*\","
                + "\"allocation_info\":{\"role\":\"analytics\"}},{\"name\":\"mem\",\"type\":\"SCALAR\","
                + "\"scalar\":{\"value\":512}},{\"name\":\"cpus\",\"type\":\"SCALAR\",\"scalar\":{\"value\":0.5}},"
                + "{\"name\":\"gpus\",\"type\":\"SCALAR\",\"scalar\":{\"value\":1}},{\"name\":\"ports\","
                + "\"type\":\"RANGES\",\"ranges\":{\"range\":[{\"begin\":31000,\"end\":32000}]}}]}}}");
        assertThat(added.state()).as("a task without state is staging").isEqualTo(MesosTaskState.TASK_STAGING);
        assertThat(added.cpus()).isEqualTo(2.0);
        assertThat(added.memMb()).isEqualTo(512.0);
        assertThat(added.gpus()).isEqualTo(1.0);
        assertThat(added.role()).isEqualTo("analytics");
        assertThat(added.eventId()).isEqualTo("mesos:" + FRAMEWORK + ":" + TASK + ":TASK_STAGING:1795338000000");
    }

    @Test
    void derivedEventIdIsStableAcrossRedeliveriesAndDistinctPerStatus() {
        String running = "{\"cluster\":\"mesos-1\",\"frameworkId\":\"f\",\"task_id\":{\"value\":\"t\"},"
                + "\"state\":\"TASK_RUNNING\",\"timestamp\":1795338000.25,\"uuid\":\"u1\"}";
        String finished = running.replace("TASK_RUNNING", "TASK_FINISHED").replace("u1", "u2");
        assertThat(decode(running).eventId()).isEqualTo("mesos:f:t:u1").isEqualTo(decode(running).eventId());
        assertThat(decode(finished).eventId()).isEqualTo("mesos:f:t:u2");
        String withoutUuid = running.replace(",\"uuid\":\"u1\"", "");
        assertThat(decode(withoutUuid).eventId()).isEqualTo("mesos:f:t:TASK_RUNNING:1795338000250");
    }

    @Test
    void mesosShapesNeedClusterAndAFramework() {
        Decoded noCluster = decoder.decode(EventTopics.MESOS_TASKS, EventDecoder.JSON,
                TestEvents.utf8("{\"frameworkId\":\"f\",\"task_id\":{\"value\":\"t\"},\"state\":\"TASK_RUNNING\","
                        + "\"timestamp\":1795338000.25}"));
        assertThat(((Decoded.Rejected) noCluster).rejection().describe())
                .isEqualTo("missing-field: cluster: required field is absent");
        Decoded noFramework = decoder.decode(EventTopics.MESOS_TASKS, EventDecoder.JSON,
                TestEvents.utf8("{\"cluster\":\"c\",\"type\":\"UPDATE\",\"update\":{\"status\":{\"task_id\":"
                        + "{\"value\":\"t\"},\"state\":\"TASK_RUNNING\",\"timestamp\":1795338000.25}}}"));
        assertThat(((Decoded.Rejected) noFramework).rejection().field()).isEqualTo("frameworkId");
        Decoded noBody = decoder.decode(EventTopics.MESOS_TASKS, EventDecoder.JSON,
                TestEvents.utf8("{\"cluster\":\"c\",\"type\":\"TASK_UPDATED\"}"));
        assertThat(((Decoded.Rejected) noBody).rejection())
                .isEqualTo(new Rejection(Reason.MISSING_FIELD, "task_updated", "required member is absent"));
        Decoded badTimestamp = decoder.decode(EventTopics.MESOS_TASKS, EventDecoder.JSON,
                TestEvents.utf8("{\"cluster\":\"c\",\"frameworkId\":\"f\",\"task_id\":{\"value\":\"t\"},"
                        + "\"state\":\"TASK_RUNNING\",\"timestamp\":\"noon\"}"));
        assertThat(((Decoded.Rejected) badTimestamp).rejection().field()).isEqualTo("status.timestamp");
    }

    @Test
    void mesosShapesAreOnlyReadOnTheMesosTopic() {
        Decoded elsewhere = decoder.decode(EventTopics.DEMAND, EventDecoder.JSON,
                TestEvents.utf8("{\"cluster\":\"c\",\"type\":\"TASK_UPDATED\",\"task_updated\":{}}"));
        assertThat(((Decoded.Rejected) elsewhere).rejection().reason()).isEqualTo(Reason.SCHEMA_MISMATCH);
    }

    private MesosTaskStatus decode(String json) {
        Decoded decoded = decoder.decode(EventTopics.MESOS_TASKS, EventDecoder.JSON, TestEvents.utf8(json));
        assertThat(decoded).as(json).isInstanceOf(Decoded.Ok.class);
        return (MesosTaskStatus) ((Decoded.Ok) decoded).event();
    }
}
