package io.fairledger.core.jobsim;

import java.util.PriorityQueue;

/**
 * The task-wave execution model: a job given {@code c} CPUs runs its tasks in trace order, each on the first slot to
 * free up (greedy list scheduling, as a MapReduce application master launches containers). Its runtime is the
 * makespan; with equal tasks that is {@code ceil(tasks / c)} waves of one task duration, never less than the perfect
 * parallelism bound {@code sum / c} and never less than the longest task. O(k log c) for k tasks.
 */
public final class TaskWaves {

    private TaskWaves() {
    }

    /** Makespan in seconds of {@code taskSeconds} (each >= 0) on {@code cpus >= 1} slots. */
    public static double makespanSeconds(double[] taskSeconds, int cpus) {
        if (cpus < 1) {
            throw new IllegalArgumentException("cpus must be at least 1, got " + cpus);
        }
        if (cpus >= taskSeconds.length) {
            double longest = 0;
            for (double t : taskSeconds) {
                longest = Math.max(longest, requireDuration(t));
            }
            return longest;
        }
        PriorityQueue<Double> slots = new PriorityQueue<>(cpus);
        for (int i = 0; i < cpus; i++) {
            slots.add(0.0);
        }
        double makespan = 0;
        for (double t : taskSeconds) {
            double end = slots.poll() + requireDuration(t);
            makespan = Math.max(makespan, end);
            slots.add(end);
        }
        return makespan;
    }

    private static double requireDuration(double t) {
        if (!(t >= 0) || Double.isInfinite(t)) {
            throw new IllegalArgumentException("task duration must be finite and >= 0 s, got " + t);
        }
        return t;
    }
}
