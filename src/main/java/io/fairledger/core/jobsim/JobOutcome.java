package io.fairledger.core.jobsim;

import java.util.Objects;

import io.fairledger.core.admission.JobRequest;

/**
 * One job's result in a simulation run (docs/domain.md section 11 per-job output).
 *
 * @param job
 *            the submitted job
 * @param outcome
 *            how it ended
 * @param cpus
 *            CPUs given at admission (for fair-share policies the cap), 0 if never admitted
 * @param admitMillis
 *            admission instant, -1 if never admitted
 * @param finishMillis
 *            completion, kill or drop instant
 * @param queuedMillis
 *            time between submission and admission, or drop
 * @param consumedCpuSeconds
 *            CPU-seconds the job held while running
 */
public record JobOutcome(JobRequest job, Outcome outcome, int cpus, long admitMillis, long finishMillis,
        long queuedMillis, double consumedCpuSeconds) {

    public JobOutcome {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(outcome, "outcome");
    }

    public String id() {
        return job.id();
    }
}
