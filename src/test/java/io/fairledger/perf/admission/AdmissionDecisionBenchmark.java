package io.fairledger.perf.admission;

import io.fairledger.core.admission.Decision;
import io.fairledger.core.admission.JobCompletion;
import io.fairledger.core.admission.JobRequest;
import io.fairledger.core.admission.Justice;
import io.fairledger.core.admission.JusticeConfig;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One Justice admission decision with 10,000 queued jobs on a full 100-CPU cluster, on the incremental index
 * ({@code indexed=true}) and on the papers' rescan ({@code indexed=false}).
 *
 * <p>
 * {@code submitAndDecide}: a job arrives (deadline 1 ms, so the next pass drops it and the queue stays at 10,000),
 * then one pass runs; nothing fits. {@code completeAndDecide}: a running 1-task job completes (TRACK_JOB, the
 * estimate is refreshed, the index must be rebuilt), a new 1-task job arrives and one pass admits it.
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

    private Justice justice;
    private long now;
    private long counter;
    private final SplittableRandom random = new SplittableRandom(42);

    @Setup(Level.Iteration)
    public void setUp() {
        justice = new Justice(CAPACITY, JusticeConfig.defaults().withIndexed(indexed));
        // bootstrap on two jobs of rate 0.5: the fraction settles at MinCPUFrac = 0.5
        for (int i = 0; i < 2; i++) {
            justice.submitAndDecide(new JobRequest("boot" + i, i, 10, 100_000, 500, ""));
            justice.complete(new JobCompletion("boot" + i, i, 500));
        }
        now = 10;
        // 100 one-task jobs (1 CPU each) fill the cluster; each one needs half its deadline in CPU-seconds
        for (int i = 0; i < CAPACITY; i++) {
            justice.submit(filler(i));
        }
        justice.decide(now);
        // 10,000 jobs of 4 to 200 tasks (at least 2 CPUs each): none fits, none expires during the run
        for (int i = 0; i < queued; i++) {
            justice.submit(new JobRequest("q" + i, now, 4 + random.nextInt(197),
                    30 * DAY_MILLIS + random.nextLong(30 * DAY_MILLIS), 1, ""));
        }
        justice.decide(now);
        counter = 0;
    }

    private JobRequest filler(long i) {
        return new JobRequest("f" + i, now, 1, DAY_MILLIS, DAY_MILLIS / 2000.0, "");
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
        justice.complete(new JobCompletion("f" + counter, now, DAY_MILLIS / 2000.0));
        justice.submit(filler(CAPACITY + counter));
        counter++;
        return justice.decide(now);
    }
}
