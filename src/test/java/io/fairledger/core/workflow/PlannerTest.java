package io.fairledger.core.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** The lexicographic plan against brute force, the ojAlgo model, and the EDF fallback. */
class PlannerTest {

    private static final double EPS = 1e-9;

    private static List<SlotJob> randomJobs(Random random, int count, int slots, int maxDemand) {
        List<SlotJob> jobs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int release = random.nextInt(slots);
            int end = release + 1 + random.nextInt(slots - release);
            jobs.add(new SlotJob("j" + i, "w" + random.nextInt(2), release, end, random.nextInt(maxDemand + 1),
                    random.nextInt(3)));
        }
        return jobs;
    }

    /** Every integral plan, the lexicographically smallest sorted normalised load vector; null if none. */
    private static double[] bruteForce(List<SlotJob> jobs, long[] capacity) {
        double[][] best = {null};
        search(jobs, 0, capacity, new long[capacity.length], best);
        return best[0];
    }

    private static void search(List<SlotJob> jobs, int index, long[] capacity, long[] load, double[][] best) {
        if (index == jobs.size()) {
            double[] levels = new double[load.length];
            for (int t = 0; t < load.length; t++) {
                levels[t] = capacity[t] == 0 ? 0 : (double) load[t] / capacity[t];
            }
            Arrays.sort(levels);
            double[] descending = new double[levels.length];
            for (int i = 0; i < levels.length; i++) {
                descending[i] = levels[levels.length - 1 - i];
            }
            if (best[0] == null || Arrays.compare(descending, best[0]) < 0) {
                best[0] = descending;
            }
            return;
        }
        SlotJob job = jobs.get(index);
        distribute(jobs, index, job, job.releaseSlot(), job.demand(), capacity, load, best);
    }

    private static void distribute(List<SlotJob> jobs, int index, SlotJob job, int slot, long left, long[] capacity,
            long[] load, double[][] best) {
        if (slot == job.endSlot() - 1) {
            if (load[slot] + left <= capacity[slot]) {
                load[slot] += left;
                search(jobs, index + 1, capacity, load, best);
                load[slot] -= left;
            }
            return;
        }
        for (long here = 0; here <= left && load[slot] + here <= capacity[slot]; here++) {
            load[slot] += here;
            distribute(jobs, index, job, slot + 1, left - here, capacity, load, best);
            load[slot] -= here;
        }
    }

    private static void assertValid(SlotPlan plan, List<SlotJob> jobs, long[] capacity) {
        long[] load = plan.load();
        for (int t = 0; t < capacity.length; t++) {
            assertThat(load[t]).isBetween(0L, capacity[t]);
            assertThat(plan.leftover()[t]).isEqualTo(capacity[t] - load[t]);
        }
        for (SlotJob job : jobs) {
            long[] mine = plan.allocation().get(job.id());
            long inWindow = 0;
            for (int t = 0; t < capacity.length; t++) {
                assertThat(mine[t]).isNotNegative();
                if (t >= job.releaseSlot() && t < job.endSlot()) {
                    inWindow += mine[t];
                } else {
                    assertThat(mine[t]).as(job.id() + " outside its window").isZero();
                }
            }
            assertThat(inWindow).isEqualTo(job.demand());
        }
    }

    @Property(tries = 1000)
    void theLexicographicPlanIsTheBruteForceOptimum(@ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long seed) {
        Random random = new Random(seed);
        int slots = 1 + random.nextInt(3);
        long[] capacity = new long[slots];
        for (int t = 0; t < slots; t++) {
            capacity[t] = random.nextInt(4);
        }
        List<SlotJob> jobs = randomJobs(random, 1 + random.nextInt(3), slots, 4);
        double[] expected = bruteForce(jobs, capacity);
        Optional<SlotPlan> plan = new LexMinMaxPlanner().plan(jobs, capacity);
        if (expected == null) {
            assertThat(plan).isEmpty();
            return;
        }
        assertThat(plan).isPresent();
        assertValid(plan.get(), jobs, capacity);
        assertThat(plan.get().sortedNormalisedLoads()).containsExactly(expected,
                org.assertj.core.api.Assertions.within(EPS));
    }

    @Property(tries = 40)
    void theOjAlgoModelReachesTheBruteForcePeak(@ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long seed) {
        Random random = new Random(seed);
        int slots = 1 + random.nextInt(3);
        long[] capacity = new long[slots];
        for (int t = 0; t < slots; t++) {
            capacity[t] = 1 + random.nextInt(3);
        }
        List<SlotJob> jobs = randomJobs(random, 1 + random.nextInt(3), slots, 4);
        double[] expected = bruteForce(jobs, capacity);
        Optional<SlotPlan> plan = new LpPeakPlanner().plan(jobs, capacity);
        if (expected == null) {
            assertThat(plan).isEmpty();
            return;
        }
        assertThat(plan).isPresent();
        assertValid(plan.get(), jobs, capacity);
        assertThat(plan.get().sortedNormalisedLoads()[0]).isCloseTo(expected[0],
                org.assertj.core.api.Assertions.within(1e-6));
    }

    @Test
    void onLargerInstancesTheFlowPlanAndTheOjAlgoModelHaveTheSamePeak() {
        Random random = new Random(11);
        for (int round = 0; round < 5; round++) {
            int slots = 12;
            long[] capacity = new long[slots];
            for (int t = 0; t < slots; t++) {
                capacity[t] = 5 + random.nextInt(6);
            }
            List<SlotJob> jobs = randomJobs(random, 25, slots, 3);
            SlotPlan flow = new LexMinMaxPlanner().plan(jobs, capacity).orElseThrow();
            SlotPlan lp = new LpPeakPlanner().plan(jobs, capacity).orElseThrow();
            assertValid(flow, jobs, capacity);
            assertThat(flow.sortedNormalisedLoads()[0]).isCloseTo(lp.sortedNormalisedLoads()[0],
                    org.assertj.core.api.Assertions.within(1e-6));
        }
    }

    @Test
    void anInfeasibleSetFallsBackToEdfByWorkflowAndReportsLeftovers() {
        // two slots of 2 CPUs; workflow w1 (deadline 100 s) and w2 (deadline 50 s) both need 3 CPU-slots in slot 0
        long[] capacity = {2, 2};
        List<SlotJob> jobs = List.of(new SlotJob("w1/a", "w1", 0, 1, 3, 100), new SlotJob("w2/a", "w2", 0, 2, 3, 50));
        assertThat(new LexMinMaxPlanner().plan(jobs, capacity)).isEmpty();
        SlotPlan edf = new EdfPlanner().plan(jobs, capacity).orElseThrow();
        // w2 first (earlier workflow deadline): 2 in slot 0, 1 in slot 1; w1 gets what is left, 1 late unit
        assertThat(edf.allocation().get("w2/a")).containsExactly(2, 1);
        assertThat(edf.allocation().get("w1/a")).containsExactly(0, 1);
        assertThat(edf.lateJobs()).containsExactly("w1/a");
        assertThat(edf.leftover()).containsExactly(0, 0);
    }

    @Test
    void flowTimeKeepsPeaksLowAndLeavesTheRestToAdHocJobs() {
        // one workflow a -> b, 10 s slots, 12 slots of 4 CPUs, deadline 120 s, slack 0:
        // a: 2 tasks x 10 s, b: 1 task x 20 s; minimums 10 s and 20 s, the 90 s left split 20 : 20 CPU-s,
        // so a runs in [0, 55) s (slots 0-4) and b in [55, 120) s (slots 6-11)
        Workflow w = new Workflow("w", List.of(new WorkflowJob("a", 2, 10, 1, List.of()),
                new WorkflowJob("b", 1, 20, 1, List.of("a"))), 0, 120);
        long[] capacity = new long[12];
        Arrays.fill(capacity, 4);
        FlowTimePlan plan = new FlowTimePlanner(10, 0, new WaveDemandDecomposer(), new LexMinMaxPlanner())
                .plan(List.of(w), capacity, 0);
        assertThat(plan.usedEdf()).isFalse();
        assertThat(plan.slotJobs()).containsExactly(new SlotJob("w/a", "w", 0, 5, 2, 120),
                new SlotJob("w/b", "w", 6, 12, 2, 120));
        // 2 CPU-slots over 5 or 6 slots of 4 CPUs: the peak is 1 CPU (1/4), never 2
        assertThat(plan.plan().load()).containsOnly(0, 1);
        assertThat(Arrays.stream(plan.plan().leftover()).sum()).isEqualTo(48 - 4);
        // with the paper's 60 s slack b must finish by 60 s: its window keeps its first slot
        FlowTimePlan slack = new FlowTimePlanner(10).plan(List.of(w), capacity, 0);
        assertThat(slack.slotJobs().get(1)).isEqualTo(new SlotJob("w/b", "w", 6, 7, 2, 120));
    }
}
