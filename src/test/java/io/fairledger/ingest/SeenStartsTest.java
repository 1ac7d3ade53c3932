package io.fairledger.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fairledger.facts.LedgerFact;
import io.fairledger.ingest.schema.MesosTaskState;
import io.fairledger.ingest.schema.MesosTaskStatus;
import io.fairledger.ingest.schema.YarnContainerEvent;
import io.fairledger.ingest.schema.YarnContainerState;

class SeenStartsTest {

    private static final Instant T = Instant.parse("2026-11-20T00:00:00Z");

    @Test
    void aMesosStartIsKnownUntilItsFinishIsStoredAndOtherTasksAreNot() {
        SeenStarts seen = new SeenStarts(10);
        MesosTaskStatus staging = mesos(MesosTaskState.TASK_STAGING, 2.0);
        seen.saw(staging, facts(staging));
        assertThat(seen.find("c", "f/t1").resources().millicores()).isEqualTo(2_000);
        assertThat(seen.find("c", "f/t2")).isNull();
        assertThat(seen.find("other", "f/t1")).as("another cluster's task of the same id").isNull();

        MesosTaskStatus finished = mesos(MesosTaskState.TASK_FINISHED, null);
        seen.saw(finished, facts(finished));
        assertThat(seen.find("c", "f/t1")).as("until the finish is stored, the start is still asked for here")
                .isNotNull();
        seen.stored(facts(finished));
        assertThat(seen.find("c", "f/t1")).isNull();
    }

    @Test
    void onlyMesosEventsAreKept() {
        SeenStarts seen = new SeenStarts(10);
        YarnContainerEvent yarn = new YarnContainerEvent("e1", "c", T, "application_1_0001", "appattempt_1_0001_01",
                "container_1", "root.a", "u", 1024, 1, 0, "n1", YarnContainerState.ALLOCATED, null, T, null, null);
        seen.saw(yarn, ((Normaliser.Facts) Normaliser.normalise(yarn, KnownStarts.NONE)).facts());
        assertThat(seen.find("c", "container_1")).isNull();
    }

    private static List<LedgerFact> facts(MesosTaskStatus event) {
        return ((Normaliser.Facts) Normaliser.normalise(event, KnownStarts.NONE)).facts();
    }

    private static MesosTaskStatus mesos(MesosTaskState state, Double cpus) {
        return new MesosTaskStatus("e-" + state, "c", T, "f", "a", "t1", null, null, state, cpus,
                cpus == null ? null : 1024.0, null, null);
    }
}
