package io.fairledger.core.admission;

import java.util.Objects;

/**
 * A deadline job as submitted for admission (docs/domain.md sections 1 and 11). Times are event-time milliseconds.
 *
 * @param id
 *            unique job id
 * @param submitMillis
 *            submit instant, milliseconds
 * @param tasks
 *            requested tasks, the job's maximum parallelism ({@code requestedTasks} in the papers), at least 1
 * @param deadlineMillis
 *            deadline relative to the submit instant, milliseconds, positive
 * @param compTimeCpuSeconds
 *            total computation time in CPU-seconds; only {@link Oracle} reads it before completion
 * @param tenant
 *            owning tenant, empty when unknown
 */
public record JobRequest(String id, long submitMillis, int tasks, long deadlineMillis, double compTimeCpuSeconds,
        String tenant) {

    public JobRequest {
        Objects.requireNonNull(id, "id");
        if (id.isBlank()) {
            throw new IllegalArgumentException("job id must not be blank");
        }
        if (submitMillis < 0) {
            throw new IllegalArgumentException("job " + id + ": submit must be >= 0, got " + submitMillis);
        }
        if (tasks < 1) {
            throw new IllegalArgumentException("job " + id + ": tasks must be >= 1, got " + tasks);
        }
        if (deadlineMillis < 1) {
            throw new IllegalArgumentException("job " + id + ": deadline must be positive, got " + deadlineMillis);
        }
        if (!(compTimeCpuSeconds >= 0) || Double.isInfinite(compTimeCpuSeconds)) {
            throw new IllegalArgumentException(
                    "job " + id + ": compTime must be finite and >= 0, got " + compTimeCpuSeconds);
        }
        tenant = tenant == null ? "" : tenant;
    }

    /** Absolute deadline {@code submit + deadline}, milliseconds. */
    public long deadlineAbsMillis() {
        return Math.addExact(submitMillis, deadlineMillis);
    }

    /** {@code maxCPUs = min(requestedTasks, capacity)} (Dimopoulos's dissertation (2018) Algorithm 3 line 3). */
    public int maxCpus(int capacity) {
        return Math.min(tasks, capacity);
    }
}
