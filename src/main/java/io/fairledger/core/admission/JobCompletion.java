package io.fairledger.core.admission;

import java.util.Objects;

/**
 * A running job that ran to completion (met or missed its deadline).
 *
 * @param jobId
 *            the job
 * @param finishMillis
 *            finish instant, milliseconds
 * @param compTimeCpuSeconds
 *            computation time the job used, CPU-seconds ({@code compTime} in Dimopoulos's dissertation (2018)
 *            Algorithm 3)
 */
public record JobCompletion(String jobId, long finishMillis, double compTimeCpuSeconds) {

    public JobCompletion {
        Objects.requireNonNull(jobId, "jobId");
        if (!(compTimeCpuSeconds >= 0) || Double.isInfinite(compTimeCpuSeconds)) {
            throw new IllegalArgumentException(
                    "job " + jobId + ": compTime must be finite and >= 0, got " + compTimeCpuSeconds);
        }
    }
}
