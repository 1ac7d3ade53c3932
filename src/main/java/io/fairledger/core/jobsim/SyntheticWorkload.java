package io.fairledger.core.jobsim;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import io.fairledger.core.admission.JobRequest;

/**
 * A seeded synthetic job trace shaped like the Justice evaluation trace (Dimopoulos's dissertation (2018) section 5.3,
 * the Google 2011 trace as the paper reports it): about 60% of jobs have one task, about 70% fewer than 10, and the few
 * jobs above 1000 tasks hold most of the computation.
 *
 * <p>
 * Decisions (the paper gives only those three shape facts): tasks are 1 with probability 0.60, uniform in [2, 9] with
 * 0.10, log-uniform in [10, 1000] with 0.27 and log-uniform in [1001, {@code maxTasks}] with 0.03. A job's tasks share
 * one duration drawn log-normal with median {@code medianTaskSeconds} and sigma 1; {@code compTime = tasks x
 * duration}. Arrivals are Poisson with mean gap {@code meanGapSeconds}. Tenants are drawn uniformly from
 * {@code t0 .. t(tenants-1)}. Deadlines are a placeholder of ten times the one-wave runtime; the caller assigns real
 * ones with {@link io.fairledger.core.deadline.DeadlineGenerator}. Same parameters and seed, same trace.
 *
 * @param jobs
 *            number of jobs, at least 1
 * @param meanGapSeconds
 *            mean inter-arrival time, > 0
 * @param medianTaskSeconds
 *            median task duration, > 0
 * @param maxTasks
 *            largest task count, at least 1001
 * @param tenants
 *            number of tenants, at least 1
 */
public record SyntheticWorkload(int jobs, double meanGapSeconds, double medianTaskSeconds, int maxTasks,
        int tenants) {

    /** Probability of a one-task job. */
    public static final double P_ONE_TASK = 0.60;
    /** Probability of 2 to 9 tasks. */
    public static final double P_UNDER_10 = 0.10;
    /** Probability of more than 1000 tasks; the rest (0.27) have 10 to 1000. */
    public static final double P_OVER_1000 = 0.03;

    public SyntheticWorkload {
        if (jobs < 1) {
            throw new IllegalArgumentException("a synthetic workload needs at least 1 job, got " + jobs);
        }
        if (!(meanGapSeconds > 0) || !(medianTaskSeconds > 0)) {
            throw new IllegalArgumentException("mean gap and median task duration must be > 0 s");
        }
        if (maxTasks < 1001) {
            throw new IllegalArgumentException("maxTasks must be at least 1001, got " + maxTasks);
        }
        if (tenants < 1) {
            throw new IllegalArgumentException("tenants must be at least 1, got " + tenants);
        }
    }

    /** The jobs, in submission order, ids {@code s000000...}. */
    public List<JobRequest> generate(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<JobRequest> out = new ArrayList<>(jobs);
        double t = 0;
        int width = Integer.toString(jobs - 1).length();
        for (int i = 0; i < jobs; i++) {
            int tasks = tasks(random);
            double duration = medianTaskSeconds * Math.exp(gaussian(random));
            double compTime = tasks * duration;
            String tenant = "t" + random.nextInt(tenants);
            long deadline = Math.max(1, (long) Math.ceil(10 * duration * 1000));
            out.add(new JobRequest("s" + String.format("%0" + width + "d", i), Math.round(t * 1000), tasks, deadline,
                    compTime, tenant));
            t += -meanGapSeconds * Math.log(1 - random.nextDouble());
        }
        return out;
    }

    private int tasks(SplittableRandom random) {
        double u = random.nextDouble();
        if (u < P_ONE_TASK) {
            return 1;
        }
        if (u < P_ONE_TASK + P_UNDER_10) {
            return 2 + random.nextInt(8);
        }
        if (u < 1 - P_OVER_1000) {
            return logUniform(random, 10, 1000);
        }
        return logUniform(random, 1001, maxTasks);
    }

    private static int logUniform(SplittableRandom random, int low, int high) {
        double x = Math.exp(Math.log(low) + random.nextDouble() * (Math.log(high + 1.0) - Math.log(low)));
        return Math.min(high, Math.max(low, (int) Math.floor(x)));
    }

    /** Standard normal by Box-Muller, consuming two values. */
    private static double gaussian(SplittableRandom random) {
        double u1 = 1 - random.nextDouble();
        double u2 = random.nextDouble();
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }
}
