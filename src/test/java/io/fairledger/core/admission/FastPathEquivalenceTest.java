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
 * (with reasons) and same offers in the same order, pass after pass, on random queues, times, free CPUs and estimator
 * changes; and whole Justice, Pythia and Oracle runs built on either decide identically.
 */
class FastPathEquivalenceTest {

    /** An estimator with a mutable fraction, like Justice's: reqCpus = max(ceil(f * deadline / TTD * maxCPUs), 1). */
    private static final class FractionEstimator implements RequestEstimator {
        double fraction;
        boolean bootstrapping;

        @Override
        public boolean bootstrapping() {
            return bootstrapping;
        }

        @Override
        public long requiredCpus(QueuedJob job, long ttdMillis) {
            if (bootstrapping) {
                return job.maxCpus;
            }
            double scaled = fraction * ((double) job.request.deadlineMillis() / ttdMillis);
            return Math.max((long) Math.ceil(scaled * job.maxCpus), 1);
        }

        @Override
        public long boundaryGuess(QueuedJob job, long request) {
            // deliberately rough, the search must still be exact
            return (long) (fraction * job.request.deadlineMillis() * job.maxCpus / request) / 2;
        }
    }

    @Property(tries = 300)
    void indexedAndRescanQueuesDecideIdentically(@ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long seed,
            @ForAll @IntRange(min = 1, max = 40) int capacity, @ForAll boolean shortestTtd) {
        Random random = new Random(seed);
        PriorityPolicy priority = shortestTtd ? PriorityPolicy.SHORTEST_TTD : PriorityPolicy.REQ_CPUS_PER_TTD;
        FractionEstimator estimator = new FractionEstimator();
        estimator.fraction = 0.05 + random.nextDouble() * 0.9;
        estimator.bootstrapping = random.nextInt(4) == 0;
        AdmissionQueue fast = new IndexedAdmissionQueue(estimator, priority, capacity);
        AdmissionQueue slow = new RescanAdmissionQueue(estimator, priority);
        long now = 0;
        int nextId = 0;
        for (int step = 0; step < 60; step++) {
            int arrivals = random.nextInt(6);
            for (int i = 0; i < arrivals; i++) {
                JobRequest request = new JobRequest("j" + nextId++, now, 1 + random.nextInt(2 * capacity),
                        1 + random.nextInt(random.nextBoolean() ? 50 : 5000), 1, "");
                fast.add(new QueuedJob(request, capacity));
                slow.add(new QueuedJob(request, capacity));
            }
            if (random.nextInt(5) == 0) {
                estimator.fraction = 0.05 + random.nextDouble() * 0.9;
                estimator.bootstrapping = random.nextInt(6) == 0;
                fast.estimatesChanged();
                slow.estimatesChanged();
            }
            int free = random.nextInt(capacity + 1);
            AdmissionQueue.PassResult expected = slow.pass(now, free);
            AdmissionQueue.PassResult actual = fast.pass(now, free);
            assertThat(describe(actual)).as("step %d at %d ms with %d free", step, now, free)
                    .isEqualTo(describe(expected));
            assertThat(fast.size()).isEqualTo(slow.size());
            now += random.nextInt(4) == 0 ? 0 : random.nextInt(random.nextBoolean() ? 5 : 500);
        }
    }

    private static List<String> describe(AdmissionQueue.PassResult result) {
        List<String> lines = new ArrayList<>();
        result.drops().forEach(d -> lines.add(d.toString()));
        result.offers().forEach(o -> lines.add("offer " + o.job().id() + " " + o.cpus()));
        return lines;
    }

    @Property(tries = 60)
    void justicePythiaAndOracleRunsAreIdenticalOnBothPaths(@ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long seed,
            @ForAll @IntRange(min = 1, max = 30) int capacity, @ForAll @IntRange(min = 0, max = 2) int which) {
        Random random = new Random(seed);
        List<JobRequest> jobs = new ArrayList<>();
        long submit = 0;
        for (int i = 0; i < 80; i++) {
            submit += random.nextInt(3) == 0 ? 0 : random.nextInt(20_000);
            int tasks = 1 + random.nextInt(2 * capacity);
            double runtimeSeconds = 1 + random.nextInt(100);
            jobs.add(new JobRequest("j" + i, submit, tasks,
                    Math.round(runtimeSeconds * (1 + random.nextDouble() * 3) * 1000),
                    runtimeSeconds * Math.min(tasks, capacity), ""));
        }
        JusticeConfig config = JusticeConfig.defaults().withKillAboveTasks(random.nextInt(2 * capacity))
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
