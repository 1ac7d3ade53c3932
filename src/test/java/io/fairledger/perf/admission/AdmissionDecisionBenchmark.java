package io.fairledger.perf.admission;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.fairledger.core.admission.Decision;
import io.fairledger.core.admission.ErrorSmoothing;
import io.fairledger.core.admission.JobCompletion;
import io.fairledger.core.admission.JobRequest;
import io.fairledger.core.admission.Justice;
import io.fairledger.core.admission.JusticeConfig;

/**
 * One Justice admission decision with 10,000 queued jobs on a full 100-CPU cluster, on the incremental index
 * ({@code indexed=true}) and on the papers' rescan ({@code indexed=false}).
 *
 * <p>
 * Queues ({@code queue}): {@code large}, 10,000 jobs of 4 to 200 tasks, of which only the smallest (4 to about 7
 * tasks) can fit the 2 or 3 CPUs a completion frees; {@code mixed}, 1 to 200 tasks, so jobs of 1 to 3 tasks compete
 * too. In both, about 50 four-task jobs run. Deadlines of 30 to 60 days: nothing expires during a run. Error smoothing ({@code smoothing}): {@code equal}
 * (the default, equal weights: the fraction moves a little with every completion) or {@code exp} (exponential, alpha
 * 0.5: it jumps).
 *
 * <p>
 * {@code submitAndDecide}: a job arrives (deadline 1 ms, so the next pass drops it and the queue stays at 10,000),
 * then one pass runs; nothing fits. {@code completeAndDecide}: the longest-running job completes having needed 0.3 to
 * 0.7 of its deadline on its {@code maxCPUs} (TRACK_JOB: Justice's fraction changes, since the running jobs got
 * {@code ceil(fraction * 4)} of their 4 tasks' CPUs), a new 4-task job arrives, one pass admits what fits the freed
 * CPUs. The teardown prints how many completions changed the fraction, its range, and the queue length.
 */
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class AdmissionDecisionBenchmark {

    private static final int CAPACITY = 100;
    private static final long DAY_MILLIS = 86_400_000L;

    @Param({"10000"})
    int queued;

    @Param({"true", "false"})
    boolean indexed;

    @Param({"large", "mixed"})
    String queue;

    @Param({"equal", "exp"})
    String smoothing;

    private Justice justice;
    private long now;
    private long counter;
    private final SplittableRandom random = new SplittableRandom(42);
    private final Map<String, JobRequest> submitted = new HashMap<>();
    private final ArrayDeque<String> running = new ArrayDeque<>();
    private long completions;
    private long fractionChanges;
    private double lowestFraction;
    private double highestFraction;

    @Setup(Level.Iteration)
    public void setUp() {
        ErrorSmoothing errors = "exp".equals(smoothing)
                ? new ErrorSmoothing.Exponential(0.5)
                : new ErrorSmoothing.EqualWeights();
        justice = new Justice(CAPACITY, JusticeConfig.defaults().withIndexed(indexed).withSmoothing(errors));
        submitted.clear();
        running.clear();
        // bootstrap on two jobs of rate 0.5
        for (int i = 0; i < 2; i++) {
            justice.submitAndDecide(new JobRequest("boot" + i, i, 10, 100_000, 500, ""));
            justice.complete(new JobCompletion("boot" + i, i, 500));
        }
        now = 10;
        // 50 four-task jobs fill the cluster: at the fraction 0.5 the bootstrap leaves, each gets 2 CPUs
        for (int i = 0; i < CAPACITY / 2; i++) {
            submit(filler(i));
        }
        record(justice.decide(now));
        int smallest = "mixed".equals(queue) ? 1 : 4;
        for (int i = 0; i < queued; i++) {
            submit(new JobRequest("q" + i, now, smallest + random.nextInt(201 - smallest),
                    30 * DAY_MILLIS + random.nextLong(30 * DAY_MILLIS), 1, ""));
        }
        record(justice.decide(now));
        counter = 0;
        completions = 0;
        fractionChanges = 0;
        lowestFraction = Double.POSITIVE_INFINITY;
        highestFraction = Double.NEGATIVE_INFINITY;
    }

    @TearDown(Level.Iteration)
    public void report() {
        if (completions > 0) {
            System.out.printf("%n[%d of %d completions changed the fraction; it ranged over %.4f..%.4f; %d queued]%n",
                    fractionChanges, completions, lowestFraction, highestFraction, justice.queuedJobs());
        }
    }

    private void submit(JobRequest job) {
        submitted.put(job.id(), job);
        justice.submit(job);
    }

    private void record(List<Decision> decisions) {
        for (Decision decision : decisions) {
            if (decision instanceof Decision.Admit admit) {
                running.add(admit.jobId());
            }
        }
    }

    private JobRequest filler(long i) {
        return new JobRequest("f" + i, now, 4, DAY_MILLIS, DAY_MILLIS / 1000.0, "");
    }

    @Benchmark
    public List<Decision> submitAndDecide() {
        now++;
        justice.submit(new JobRequest("s" + counter++, now, 8, 1, 1, ""));
        return justice.decide(now);
    }

    @Benchmark
    public List<Decision> completeAndDecide() {
        now++;
        JobRequest done = submitted.remove(running.poll());
        double rate = 0.3 + 0.4 * random.nextDouble();
        double before = justice.allocationFraction();
        justice.complete(new JobCompletion(done.id(), now,
                rate * done.deadlineMillis() / 1000.0 * done.maxCpus(CAPACITY)));
        double after = justice.allocationFraction();
        completions++;
        fractionChanges += after != before ? 1 : 0;
        lowestFraction = Math.min(lowestFraction, after);
        highestFraction = Math.max(highestFraction, after);
        submit(filler(CAPACITY + counter++));
        List<Decision> decisions = justice.decide(now);
        record(decisions);
        return decisions;
    }
}
