package io.fairledger.core.admission;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * The fast {@link IndexedAdmissionQueue} decides exactly as the pseudocode's {@link RescanAdmissionQueue}: same drops
 * (with reasons) and same offers in the same order, pass after pass, on random queues, times, free CPUs, fraction
 * changes (large jumps, tiny steps, oscillation between two values, the ends of the range), bootstrap switches, and
 * deadlines short or long against the queue times (requests of equal maxCPUs differ, or are equal: uniform groups),
 * under every priority policy; and whole Justice, Pythia and Oracle runs (completions change the fraction, kills) built
 * on either decide identically.
 */
class FastPathEquivalenceTest {

    /** Justice's request formula with a fraction the test sets, and a deliberately poor boundary guess. */
    private static final class FractionEstimator extends ScaledRequestEstimator {
        double fraction;
        boolean bootstrapping;

        @Override
        public boolean bootstrapping() {
            return bootstrapping;
        }

        @Override
        public double fraction() {
            return fraction;
        }
    }

    /** The same requests, but guesses that are wrong in both directions: the index must only trust what it checks. */
    private static final class MisleadingEstimator implements RequestEstimator {
        final FractionEstimator exact = new FractionEstimator();
        final Random random;

        MisleadingEstimator(long seed) {
            this.random = new Random(seed);
        }

        @Override
        public boolean bootstrapping() {
            return exact.bootstrapping;
        }

        @Override
        public double fraction() {
            return exact.fraction;
        }

        @Override
        public long requiredCpus(QueuedJob job, long ttdMillis, double fraction) {
            return exact.requiredCpus(job, ttdMillis, fraction);
        }

        @Override
        public long minimalCpus(int maxCpus, double fraction) {
            return exact.minimalCpus(maxCpus, fraction);
        }

        @Override
        public boolean scalesWithUrgency() {
            return exact.scalesWithUrgency();
        }

        @Override
        public long cpusAtUrgency(int maxCpus, double urgency, double fraction) {
            return exact.cpusAtUrgency(maxCpus, urgency, fraction);
        }

        @Override
        public long ttdBoundaryGuess(QueuedJob job, long request, double fraction) {
            return exact.ttdBoundaryGuess(job, request, fraction) * random.nextInt(3) + random.nextInt(3) - 1;
        }

        @Override
        public double fractionBoundaryGuess(QueuedJob job, long ttdMillis, long request) {
            double guess = exact.fractionBoundaryGuess(job, ttdMillis, request);
            return switch (random.nextInt(4)) {
                case 0 -> guess;
                case 1 -> guess * (1 + 1e-15);
                case 2 -> guess * 3;
                default -> Math.nextDown(guess);
            };
        }
    }

    /** A pluggable policy obeying the contract: fewest CPUs first, then the longest TTD. */
    private static final PriorityPolicy FEWEST_CPUS = new PriorityPolicy() {
        @Override
        public int compare(long reqA, long ttdA, long reqB, long ttdB) {
            int byReq = Long.compare(reqA, reqB);
            return byReq != 0 ? byReq : Long.compare(ttdB, ttdA);
        }

        @Override
        public boolean longerTtdFirstAtEqualRequest() {
            return true;
        }

        @Override
        public String name() {
            return "fewest-cpus";
        }
    };

    private static final PriorityPolicy[] POLICIES = {PriorityPolicy.REQ_CPUS_PER_TTD, PriorityPolicy.SHORTEST_TTD,
            FEWEST_CPUS};

    @Property(tries = 400)
    void indexedAndRescanQueuesDecideIdentically(@ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long seed,
            @ForAll @IntRange(min = 1, max = 40) int capacity, @ForAll @IntRange(min = 0, max = 2) int policy,
            @ForAll boolean misleadingGuesses) {
        Random random = new Random(seed);
        boolean longDeadlines = random.nextInt(3) == 0;
        PriorityPolicy priority = POLICIES[policy];
        MisleadingEstimator misleading = new MisleadingEstimator(seed);
        FractionEstimator estimator = misleading.exact;
        estimator.fraction = 0.05 + random.nextDouble() * 0.9;
        estimator.bootstrapping = random.nextInt(4) == 0;
        AdmissionQueue fast = new IndexedAdmissionQueue(misleadingGuesses ? misleading : estimator, priority,
                capacity);
        AdmissionQueue slow = new RescanAdmissionQueue(estimator, priority);
        double[] oscillation = {estimator.fraction, 0.05 + random.nextDouble() * 0.9};
        long now = 0;
        int nextId = 0;
        for (int step = 0; step < 120; step++) {
            int arrivals = random.nextInt(random.nextInt(8) == 0 ? 40 : 6);
            for (int i = 0; i < arrivals; i++) {
                // now and then a job is passed over before its submit instant (its TTD exceeds its deadline)
                long submit = random.nextInt(20) == 0 ? now + random.nextInt(100) : now;
                // short deadlines make requests of equal maxCPUs differ; long ones make them equal (uniform groups)
                int deadlines = longDeadlines ? 10_000_000 : random.nextBoolean() ? 50 : 5000;
                JobRequest request = new JobRequest("j" + nextId++, submit, 1 + random.nextInt(2 * capacity),
                        1 + random.nextInt(deadlines), 1, "");
                fast.add(new QueuedJob(request, capacity));
                slow.add(new QueuedJob(request, capacity));
            }
            if (random.nextInt(3) > 0) {
                estimator.fraction = nextFraction(random, estimator.fraction, oscillation, step);
            }
            if (random.nextInt(12) == 0) {
                estimator.bootstrapping = !estimator.bootstrapping;
            }
            int free = random.nextInt(3) == 0 ? capacity : random.nextInt(capacity + 1);
            AdmissionQueue.PassResult expected = slow.pass(now, free);
            AdmissionQueue.PassResult actual = fast.pass(now, free);
            assertThat(describe(actual)).as("step %d at %d ms with %d free, fraction %s", step, now, free,
                    estimator.fraction).isEqualTo(describe(expected));
            assertThat(fast.size()).isEqualTo(slow.size());
            now += random.nextInt(4) == 0 ? 0 : random.nextInt(random.nextBoolean() ? 5 : 500);
        }
    }

    private static double nextFraction(Random random, double current, double[] oscillation, int step) {
        return switch (random.nextInt(7)) {
            case 0 -> 0.05 + random.nextDouble() * 0.95; // a jump
            case 1 -> Math.max(0, current + (random.nextDouble() - 0.5) * 1e-3); // a small step
            case 2 -> Math.nextUp(current); // the smallest step
            case 3 -> oscillation[step % 2]; // back and forth between two values
            case 4 -> random.nextBoolean() ? 1.0 : random.nextDouble() * 0.01; // the ends
            default -> Math.min(1.0, current * (0.8 + 0.4 * random.nextDouble()));
        };
    }

    private static List<String> describe(AdmissionQueue.PassResult result) {
        List<String> lines = new ArrayList<>();
        result.drops().forEach(d -> lines.add(d.toString()));
        result.offers().forEach(o -> lines.add("offer " + o.job().id() + " " + o.cpus()));
        return lines;
    }

    @Property(tries = 100)
    void justicePythiaAndOracleRunsAreIdenticalOnBothPaths(@ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long seed,
            @ForAll @IntRange(min = 1, max = 30) int capacity, @ForAll @IntRange(min = 0, max = 2) int which,
            @ForAll @IntRange(min = 0, max = 2) int policy) {
        Random random = new Random(seed);
        List<JobRequest> jobs = new ArrayList<>();
        long submit = 0;
        for (int i = 0; i < 150; i++) {
            submit += random.nextInt(3) == 0 ? 0 : random.nextInt(20_000);
            int tasks = 1 + random.nextInt(2 * capacity);
            double runtimeSeconds = 1 + random.nextInt(100);
            // compTime varies around what the deadline allows, so every completion moves Justice's fraction
            jobs.add(new JobRequest("j" + i, submit, tasks,
                    Math.round(runtimeSeconds * (1 + random.nextDouble() * 3) * 1000),
                    runtimeSeconds * Math.min(tasks, capacity) * (0.2 + random.nextDouble()), ""));
        }
        JusticeConfig config = JusticeConfig.defaults().withKillAboveTasks(random.nextInt(2 * capacity))
                .withPriority(POLICIES[policy]).withBootstrapCompletions(1 + random.nextInt(3))
                .withSmoothing(random.nextBoolean()
                        ? new ErrorSmoothing.EqualWeights()
                        : new ErrorSmoothing.Exponential(0.1 + 0.9 * random.nextDouble()));
        assertThat(runs(jobs, capacity, which, config.withIndexed(true)))
                .isEqualTo(runs(jobs, capacity, which, config.withIndexed(false)));
    }

    private static List<String> runs(List<JobRequest> jobs, int capacity, int which, JusticeConfig config) {
        AdmissionPolicy policy = switch (which) {
            case 0 -> new Justice(capacity, config);
            case 1 -> new Pythia(capacity, config);
            default -> new Oracle(capacity, config.priority(), config.indexed());
        };
        return DecisionLog.run(jobs, policy);
    }
}
