package io.fairledger.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;
import io.fairledger.facts.LedgerFact;

/** The waiting Mesos starts: what releases one, when one expires, and the reasons of its dead letter. */
class WaitingStartsTest {

    private static final long T = Instant.parse("2026-11-20T00:00:00Z").toEpochMilli();
    private static final long HOUR = Duration.ofHours(1).toMillis();

    private final WaitingStarts<String> waiting = new WaitingStarts<>(cluster -> Duration.ofHours(1));

    @Test
    void aStartWithResourcesAtMostTheLatenessLaterReleasesTheWaitingOneAtItsOwnTime() {
        waiting.hold(new Normaliser.Unresourced("c", "f/t", "TASK_RUNNING", T), "line 1");

        List<LedgerFact> released = waiting.release(List.of(start("f/t", T + HOUR)));

        assertThat(released).hasSize(1);
        LedgerEvent.TaskStarted s = (LedgerEvent.TaskStarted) ((LedgerFact.Event) released.get(0)).event();
        assertThat(s.at()).isEqualTo(T);
        assertThat(s.resources()).isEqualTo(ResourceVector.ofMillicores(2000, 512, 0));
        assertThat(waiting.size()).isZero();
        assertThat(waiting.advance("c", T + 3 * HOUR)).isEmpty();
    }

    @Test
    void aStartMoreThanTheLatenessLaterOrOfAnotherTaskReleasesNothing() {
        waiting.hold(new Normaliser.Unresourced("c", "f/t", "TASK_RUNNING", T), "line 1");

        assertThat(waiting.release(List.of(start("f/t", T + HOUR + 1)))).isEmpty();
        assertThat(waiting.release(List.of(start("f/u", T)))).isEmpty();
        assertThat(waiting.size()).isEqualTo(1);
    }

    @Test
    void itExpiresOnlyOnceTheWatermarkPassesItsTimePlusTwiceTheLatenessWithAReasonNamingTheTask() {
        waiting.hold(new Normaliser.Unresourced("c", "f/t", "TASK_STAGING", T), "line 1");

        assertThat(waiting.advance("c", T + 2 * HOUR)).isEmpty();
        assertThat(waiting.advance("other", T + 5 * HOUR)).isEmpty();
        List<WaitingStarts.Expired<String>> expired = waiting.advance("c", T + 2 * HOUR + 1);

        assertThat(expired).extracting(WaitingStarts.Expired::source).containsExactly("line 1");
        assertThat(expired.get(0).reason()).isEqualTo("invalid: a Mesos task start (TASK_STAGING at "
                + "2026-11-20T00:00:00Z) of task 'f/t' carries no resources (cpus, mem, gpus), and no event of the "
                + "task that carries them, at most the allowed lateness (PT1H) after it, arrived before the watermark "
                + "of cluster 'c' passed 2026-11-20T02:00:00Z (its time plus twice the lateness)");
        assertThat(waiting.rest()).isEmpty();
    }

    @Test
    void atTheEndOfTheEventsEveryStartStillWaitingIsADeadLetter() {
        waiting.hold(new Normaliser.Unresourced("c", "f/t", "TASK_RUNNING", T), "line 1");
        waiting.hold(new Normaliser.Unresourced("c", "f/t", "TASK_RUNNING", T), "line 2");

        List<WaitingStarts.Expired<String>> rest = waiting.rest();

        assertThat(rest).extracting(WaitingStarts.Expired::source).containsExactlyInAnyOrder("line 1", "line 2");
        assertThat(rest.get(0).reason()).endsWith("arrived among the events");
    }

    @Test
    void asManyStartsOfAClusterAsMayWaitAndOneMoreIsRefusedWithItsReasonUntilOneStopsWaiting() {
        WaitingStarts<String> two = new WaitingStarts<>(cluster -> Duration.ofHours(1), source -> {
        }, 2);
        assertThat(two.hold(new Normaliser.Unresourced("c", "f/t", "TASK_RUNNING", T), "line 1")).isEmpty();
        assertThat(two.hold(new Normaliser.Unresourced("c", "f/u", "TASK_RUNNING", T), "line 2")).isEmpty();
        assertThat(two.hold(new Normaliser.Unresourced("other", "f/t", "TASK_RUNNING", T), "line 3")).isEmpty();

        var refused = two.hold(new Normaliser.Unresourced("c", "f/v", "TASK_STAGING", T), "line 4");

        assertThat(refused).get().extracting(WaitingStarts.Expired::source).isEqualTo("line 4");
        assertThat(refused.get().reason()).isEqualTo("invalid: a Mesos task start (TASK_STAGING at "
                + "2026-11-20T00:00:00Z) of task 'f/v' carries no resources (cpus, mem, gpus), and 2 such starts of "
                + "cluster 'c' already wait for their task's resources, as many as may wait at once");
        assertThat(two.size()).isEqualTo(3);
        // released, expired or dropped, a start leaves room for another
        assertThat(two.release(List.of(start("f/t", T)))).hasSize(1);
        assertThat(two.hold(new Normaliser.Unresourced("c", "f/w", "TASK_RUNNING", T), "line 5")).isEmpty();
        two.drop("line 2"::equals);
        assertThat(two.hold(new Normaliser.Unresourced("c", "f/x", "TASK_RUNNING", T), "line 6")).isEmpty();
        assertThat(two.hold(new Normaliser.Unresourced("c", "f/y", "TASK_RUNNING", T), "line 7")).isPresent();
        assertThat(two.advance("c", T + 2 * HOUR + 1)).extracting(WaitingStarts.Expired::source)
                .containsExactlyInAnyOrder("line 5", "line 6");
        assertThat(two.size()).isEqualTo(1);
        assertThat(two.hold(new Normaliser.Unresourced("c", "f/z", "TASK_RUNNING", T), "line 8")).isEmpty();
    }

    private static LedgerFact start(String task, long at) {
        return new LedgerFact.Event(new LedgerEvent.TaskStarted("c", task, TenantPath.parse("root.a"), "f",
                ResourceVector.ofMillicores(2000, 512, 0), at), LedgerFact.taskKey(task, true));
    }
}
