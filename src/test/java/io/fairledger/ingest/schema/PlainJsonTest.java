package io.fairledger.ingest.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The conveniences of the plain JSON encoding: instants in any notation, defaults for absent or null fields. */
class PlainJsonTest {

    private static final String DEMAND = "{\"eventId\":\"d1\",\"cluster\":\"c1\",\"eventTime\":%s,"
            + "\"tenant\":\"root.a\",\"pendingCpus\":4,\"pendingMemoryMb\":4096%s}";

    private final EventDecoder decoder = TestEvents.decoder();

    @Test
    void anInstantMayBeIsoUtcIsoWithOffsetOrEpochMillis() {
        Instant expected = Instant.parse("2026-11-22T09:00:00.125Z");
        assertThat(demand("\"2026-11-22T09:00:00.125Z\"", "").eventTime()).isEqualTo(expected);
        assertThat(demand("\"2026-11-22T10:00:00.125+01:00\"", "").eventTime()).isEqualTo(expected);
        assertThat(demand(Long.toString(expected.toEpochMilli()), "").eventTime()).isEqualTo(expected);
    }

    @Test
    void absentOrNullFieldsWithADefaultTakeIt() {
        DemandReported absent = demand("\"2026-11-22T09:00:00Z\"", "");
        DemandReported nulls = demand("\"2026-11-22T09:00:00Z\"",
                ",\"pendingGpus\":null,\"applicationId\":null,\"pendingTasks\":null");
        assertThat(nulls).isEqualTo(absent);
        assertThat(absent.pendingGpus()).isZero();
        assertThat(absent.applicationId()).isNull();
        assertThat(absent.pendingTasks()).isNull();
    }

    @Test
    void workflowDependenciesDefaultToNone() {
        Decoded decoded = decoder.decode(EventTopics.WORKFLOWS, EventDecoder.JSON,
                TestEvents.utf8("{\"eventId\":\"w\",\"cluster\":\"c\",\"eventTime\":1795338000000,"
                        + "\"workflowId\":\"wf\",\"tenant\":\"t\",\"relativeDeadlineSeconds\":60,"
                        + "\"jobs\":[{\"jobId\":\"a\",\"requestedTasks\":2}]}"));
        WorkflowSubmitted workflow = (WorkflowSubmitted) ((Decoded.Ok) decoded).event();
        assertThat(workflow.jobs()).containsExactly(new WorkflowSubmitted.WorkflowJob("a", 2, null, List.of()));
    }

    private DemandReported demand(String eventTime, String extra) {
        Decoded decoded = decoder.decode(EventTopics.DEMAND, EventDecoder.JSON,
                TestEvents.utf8(String.format(DEMAND, eventTime, extra)));
        assertThat(decoded).isInstanceOf(Decoded.Ok.class);
        return (DemandReported) ((Decoded.Ok) decoded).event();
    }
}
