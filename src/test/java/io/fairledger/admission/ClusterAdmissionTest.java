package io.fairledger.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import com.fasterxml.jackson.core.JsonProcessingException;
import org.junit.jupiter.api.Test;

import io.fairledger.core.admission.JobRequest;
import io.fairledger.core.admission.Justice;

class ClusterAdmissionTest {

    private static final long T0 = 1_760_000_000_000L;

    private final List<LogEntry> log = new ArrayList<>();

    private void row(long at, String kind, Object payload) {
        try {
            log.add(new LogEntry(log.size() + 1, kind + ":" + log.size(), at, kind, "application/json",
                    AdmissionRows.JSON.writeValueAsBytes(payload)));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private void job(long at, String id, int tasks, long deadlineMs) {
        row(at, LogEntry.HTTP_JOB, new LogEntry.JobSubmission(id, "root.a", tasks, deadlineMs, 10.0));
    }

    private void done(long at, String id, double compTime) {
        row(at, LogEntry.HTTP_COMPLETION, new LogEntry.Completion(id, compTime, null));
    }

    private ClusterAdmission replay() {
        ClusterAdmission state = new ClusterAdmission("c");
        log.forEach(state::apply);
        return state;
    }

    @Test
    void decisionsFollowJusticeAndReplayGivesTheSameState() {
        row(T0, LogEntry.POLICY_CHANGE, new LogEntry.PolicyChange(PolicySettings.defaults(), 10));
        job(T0, "j1", 4, 100_000);
        job(T0 + 10, "j2", 8, 100_000);
        job(T0 + 20, "late", 2, 5);
        job(T0 + 30, "j4", 2, 100_000);
        done(T0 + 1_000, "j1", 40);
        ClusterAdmission live = new ClusterAdmission("c");
        List<Applied> applied = new ArrayList<>();
        log.forEach(e -> applied.add(live.apply(e)));

        assertThat(applied.get(1).decisions()).extracting(DecisionEvent::outcome,
                DecisionEvent::cpus)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("ADMITTED", 4));
        // bootstrap: a job that does not fit gets the free CPUs
        assertThat(applied.get(2).decisions().get(0).cpus()).isEqualTo(6);
        assertThat(applied.get(3).decisions().get(0).outcome()).isEqualTo("QUEUED");
        // at j4's pass the 5 ms deadline of "late" has passed: dropped; j4 waits for j1's CPUs
        assertThat(applied.get(4).decisions()).extracting(DecisionEvent::jobId,
                DecisionEvent::outcome).containsExactly(
                        org.assertj.core.groups.Tuple.tuple("late", "DROPPED"),
                        org.assertj.core.groups.Tuple.tuple("j4", "QUEUED"));
        assertThat(applied.get(4).decisions().get(0).reason()).isNotBlank();
        assertThat(applied.get(5).decisions()).extracting(DecisionEvent::jobId,
                DecisionEvent::outcome).containsExactly(
                        org.assertj.core.groups.Tuple.tuple("j4", "ADMITTED"));
        assertThat(live.job("j4").history()).extracting(AdmissionViews.Change::outcome)
                .containsExactly("QUEUED", "ADMITTED");
        assertThat(live.job("j1").status()).isEqualTo(AdmissionViews.Status.COMPLETED);
        assertThat(live.summary().sdr()).as("1 met of 2 ended (j1 met, late dropped)").isEqualTo(0.5);

        ClusterAdmission replayed = replay();
        for (String id : List.of("j1", "j2", "late", "j4")) {
            assertThat(replayed.job(id)).isEqualTo(live.job(id));
        }
        assertThat(replayed.summary()).isEqualTo(live.summary());
    }

    @Test
    void explanationCarriesJusticesNumbers() {
        row(T0, LogEntry.POLICY_CHANGE, new LogEntry.PolicyChange(PolicySettings.defaults(), 10));
        job(T0, "a", 4, 10_000);
        job(T0, "b", 4, 10_000);
        done(T0 + 5_000, "a", 8);
        done(T0 + 6_000, "b", 12);
        job(T0 + 7_000, "c", 10, 20_000);
        ClusterAdmission state = replay();
        AdmissionViews.Explanation why = state.job("c").history().get(0).explanation();
        Justice reference = new Justice(10);
        reference.submit(new JobRequest("a", T0, 4, 10_000, 0, ""));
        reference.submit(new JobRequest("b", T0, 4, 10_000, 0, ""));
        reference.decide(T0);
        reference.complete(new io.fairledger.core.admission.JobCompletion("a", T0 + 5_000, 8));
        reference.decide(T0 + 5_000);
        reference.complete(new io.fairledger.core.admission.JobCompletion("b", T0 + 6_000, 12));
        reference.decide(T0 + 6_000);
        JobRequest c = new JobRequest("c", T0 + 7_000, 10, 20_000, 10, "root.a");
        assertThat(why.fraction()).isEqualTo(reference.allocationFraction()).isLessThan(1.0);
        assertThat(why.requiredCpus()).isEqualTo(reference.requiredCpus(c, T0 + 7_000));
        assertThat(why.ttdMillis()).isEqualTo(20_000);
        assertThat(why.queueTimeScaling()).isEqualTo(1.0);
        assertThat(why.freeCpus()).isEqualTo(10);
        assertThat(why.completionsLearned()).isEqualTo(2);
        assertThat(state.job("c").history().get(0).cpus()).isEqualTo(why.requiredCpus().intValue());
    }

    @Test
    void aPolicyChangeKeepsRunningJobsAndDecidesQueuedOnesAgain() {
        row(T0, LogEntry.POLICY_CHANGE, new LogEntry.PolicyChange(PolicySettings.defaults(), 10));
        job(T0, "run", 10, 100_000);
        job(T0 + 1, "wait", 3, 100_000);
        row(T0 + 2, LogEntry.POLICY_CHANGE,
                new LogEntry.PolicyChange(new PolicySettings("oracle", null, null, null, null, null).normalised(), 10));
        done(T0 + 3, "run", 5);
        ClusterAdmission state = replay();
        assertThat(state.settings().policy()).isEqualTo("oracle");
        assertThat(state.job("run").history()).extracting(AdmissionViews.Change::outcome)
                .containsExactly("ADMITTED", "CARRIED", "COMPLETED");
        assertThat(state.job("wait").history()).extracting(AdmissionViews.Change::outcome)
                .containsExactly("QUEUED", "QUEUED", "ADMITTED");
        assertThat(state.job("wait").history().get(1).reason()).contains("policy changed to oracle");
        // Oracle with an estimate of 10 CPU-s over ~100 s asks one CPU
        assertThat(state.job("wait").cpus()).isEqualTo(1);
    }

    @Test
    void refusalsAreDeterministicAndKeepTheStateGoing() {
        row(T0, LogEntry.POLICY_CHANGE, new LogEntry.PolicyChange(PolicySettings.defaults(), 4));
        job(T0, "x", 1, 1_000);
        job(T0, "x", 1, 1_000);
        done(T0, "nobody", 1);
        ClusterAdmission state = new ClusterAdmission("c");
        List<Refusal> refusals = new ArrayList<>();
        log.forEach(e -> refusals.add(state.apply(e).refusal()));
        assertThat(refusals.get(0)).isNull();
        assertThat(refusals.get(1)).isNull();
        assertThat(refusals.get(2).kind()).isEqualTo(Refusal.Kind.DUPLICATE);
        assertThat(refusals.get(2).detail()).contains("already submitted");
        assertThat(refusals.get(2).exception()).isInstanceOf(io.fairledger.errors.Conflict.class);
        assertThat(refusals.get(3).kind()).isEqualTo(Refusal.Kind.UNKNOWN_JOB);
        assertThat(refusals.get(3).detail()).contains("unknown");
        assertThat(refusals.get(3).exception()).isInstanceOf(io.fairledger.errors.NotFound.class);
        assertThatThrownBy(() -> state.apply(log.get(0))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("expected position 5");
    }

    @Test
    void kafkaJobEventsAreDecodedAndLateOnesDoNotMoveTimeBack() {
        row(T0, LogEntry.POLICY_CHANGE, new LogEntry.PolicyChange(PolicySettings.defaults(), 8));
        job(T0 + 60_000, "http", 2, 100_000);
        String submitted = "{\"type\":\"JobSubmitted\",\"eventId\":\"k1\",\"cluster\":\"c\",\"eventTime\":\""
                + java.time.Instant.ofEpochMilli(T0) + "\",\"jobId\":\"k\",\"tenant\":\"root.b\","
                + "\"requestedTasks\":3,\"relativeDeadlineSeconds\":3600}";
        log.add(new LogEntry(3, "k1", T0, LogEntry.JOB_SUBMITTED, null,
                submitted.getBytes(StandardCharsets.UTF_8)));
        ClusterAdmission state = replay();
        assertThat(state.job("k").status()).isEqualTo(AdmissionViews.Status.RUNNING);
        assertThat(state.job("k").history().get(0).at().toEpochMilli()).as("applied at the later instant")
                .isEqualTo(T0 + 60_000);
        assertThat(state.job("k").history().get(0).explanation().ttdMillis()).isEqualTo(3_600_000 - 60_000);
    }

    @Test
    void randomLogsReplayIdentically() {
        Random random = new Random(11);
        row(T0, LogEntry.POLICY_CHANGE, new LogEntry.PolicyChange(PolicySettings.defaults(), 16));
        long t = T0;
        List<String> running = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            t += random.nextInt(2_000);
            if (!running.isEmpty() && random.nextBoolean()) {
                done(t, running.remove(random.nextInt(running.size())), random.nextDouble() * 100);
            } else if (random.nextInt(10) == 0) {
                row(t, LogEntry.TICK, java.util.Map.of());
            } else {
                String id = "j" + i;
                job(t, id, 1 + random.nextInt(12), 1_000 + random.nextInt(60_000));
                running.add(id);
            }
        }
        ClusterAdmission a = replay();
        ClusterAdmission b = replay();
        for (int i = 0; i < 400; i++) {
            assertThat(b.job("j" + i)).isEqualTo(a.job("j" + i));
        }
        List<String> outcomes = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            if (a.job("j" + i) != null) {
                a.job("j" + i).history().forEach(change -> outcomes.add(change.outcome()));
            }
        }
        assertThat(outcomes).contains("ADMITTED", "QUEUED", "DROPPED");
        assertThat(b.summary()).isEqualTo(a.summary());
    }
}
