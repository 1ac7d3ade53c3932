package io.fairledger.perf.admission;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import io.fairledger.core.workflow.LexMinMaxPlanner;
import io.fairledger.core.workflow.LpPeakPlanner;
import io.fairledger.core.workflow.SlotJob;
import io.fairledger.core.workflow.SlotPlan;

/**
 * FlowTime's plan for 1,000 deadline jobs over 100 slots of 200 CPUs (windows of 5 to 40 slots, about half the
 * capacity demanded): the lexicographic min-max plan, and for comparison one ojAlgo LP solve of the relaxation of the
 * first (peak) level alone. The paper reports 2.8 s with CPLEX for 1,000 jobs x 100 slots.
 */
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class FlowTimePlanBenchmark {

    @Param({"1000"})
    int jobs;

    @Param({"100"})
    int slots;

    private List<SlotJob> slotJobs;
    private long[] capacity;

    @Setup
    public void setUp() {
        Random random = new Random(3);
        capacity = new long[slots];
        Arrays.fill(capacity, 200);
        slotJobs = new ArrayList<>();
        for (int i = 0; i < jobs; i++) {
            int release = random.nextInt(slots - 5);
            int end = Math.min(slots, release + 5 + random.nextInt(Math.min(36, slots - release - 4)));
            slotJobs.add(new SlotJob("j" + i, "w" + i / 10, release, end, 1 + random.nextInt(end - release), 0));
        }
    }

    @Benchmark
    public Optional<SlotPlan> lexicographicMinMax() {
        return new LexMinMaxPlanner().plan(slotJobs, capacity);
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    public OptionalDouble ojAlgoRelaxedPeakOnly() {
        return new LpPeakPlanner().relaxedPeak(slotJobs, capacity);
    }
}
