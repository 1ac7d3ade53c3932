package io.fairledger.simulation.trace;

import io.fairledger.core.admission.JobRequest;

/**
 * One job as a trace reader found it, before times are shifted to start at 0 (docs/domain.md section 11 job format).
 *
 * @param id
 *            unique job id
 * @param submitSeconds
 *            submit instant in the trace's own clock, seconds (may be negative, e.g. Alibaba 2017)
 * @param tasks
 *            requested tasks, at least 1
 * @param compTimeSeconds
 *            computation in CPU-seconds (task-slot seconds), >= 0
 * @param deadlineSeconds
 *            relative deadline, or NaN when the trace has none ({@code --deadlines} assigns one)
 * @param tenant
 *            owning tenant, empty when unknown
 * @param taskSeconds
 *            task durations in seconds for the task-wave model, null when unknown
 */
public record TraceJob(String id, double submitSeconds, int tasks, double compTimeSeconds, double deadlineSeconds,
        String tenant, double[] taskSeconds) {

    /** Deadline given to a job whose trace has none until a deadline model replaces it: one millisecond. */
    public static final long PLACEHOLDER_DEADLINE_MILLIS = 1;

    public TraceJob {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("job id must not be blank");
        }
        if (tasks < 1) {
            throw new IllegalArgumentException("job " + id + ": tasks must be >= 1, got " + tasks);
        }
        if (!(compTimeSeconds >= 0) || Double.isInfinite(compTimeSeconds)) {
            throw new IllegalArgumentException("job " + id + ": compTime must be finite and >= 0, got "
                    + compTimeSeconds);
        }
        tenant = tenant == null ? "" : tenant;
    }

    /** Whether the trace gave a deadline. */
    public boolean hasDeadline() {
        return !Double.isNaN(deadlineSeconds);
    }

    /** The admission request with submit shifted by {@code originSeconds} (the trace's first submit). */
    public JobRequest request(double originSeconds) {
        long deadline = hasDeadline() ? Math.round(deadlineSeconds * 1000) : PLACEHOLDER_DEADLINE_MILLIS;
        return new JobRequest(id, Math.round((submitSeconds - originSeconds) * 1000), tasks, deadline,
                compTimeSeconds, tenant);
    }
}
