package io.fairledger.core.deadline;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;

import io.fairledger.core.admission.JobRequest;

/**
 * Assigns deadlines {@code D = x * T} to jobs from a {@link DeadlineModel}, reproducibly from a seed. {@code T =
 * compTime / min(tasks, capacity)} is the runtime on an empty cluster under perfect parallelism (docs/domain.md section
 * 11). Jobs draw in submission order (submit time, then id), so the same seed and trace always give the same
 * deadlines. A deadline is rounded up to whole milliseconds and is at least 1 ms.
 */
public final class DeadlineGenerator {

    private final DeadlineModel model;
    private final long seed;

    public DeadlineGenerator(DeadlineModel model, long seed) {
        this.model = Objects.requireNonNull(model, "model");
        this.seed = seed;
    }

    /** New job requests with generated deadlines, in submission order; the input is not modified. */
    public List<JobRequest> assign(List<JobRequest> jobs, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1 CPU, got " + capacity);
        }
        List<JobRequest> ordered = new ArrayList<>(jobs);
        ordered.sort(Comparator.comparingLong(JobRequest::submitMillis).thenComparing(JobRequest::id));
        SplittableRandom random = new SplittableRandom(seed);
        List<JobRequest> result = new ArrayList<>(ordered.size());
        for (JobRequest job : ordered) {
            double emptyClusterMillis = job.compTimeCpuSeconds() * 1000.0 / job.maxCpus(capacity);
            long deadline = Math.max(1, (long) Math.ceil(model.multiplier(random) * emptyClusterMillis));
            result.add(new JobRequest(job.id(), job.submitMillis(), job.tasks(), deadline, job.compTimeCpuSeconds(),
                    job.tenant()));
        }
        return result;
    }
}
