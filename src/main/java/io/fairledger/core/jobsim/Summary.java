package io.fairledger.core.jobsim;

/**
 * The run's metrics as docs/domain.md section 9 defines them (the papers' SDR, PTR, WTR, utilization, fairness,
 * equality).
 *
 * @param sdr
 *            met / submitted
 * @param ptr
 *            compTime of met jobs / compTime of all submitted jobs
 * @param wtr
 *            CPU-seconds consumed by jobs that missed or were killed / compTime of all submitted jobs
 * @param utilization
 *            busy CPU-seconds / (capacity x span from the first submission to the last event)
 * @param fairness
 *            mean over 60 s samples of Jain's index over {@code min(allocation / request, 1)}
 * @param equality
 *            mean over the same samples of the class-size-weighted Jain's index of allocations within classes of
 *            equal demand
 */
public record Summary(double sdr, double ptr, double wtr, double utilization, double fairness, double equality) {
}
