package io.fairledger.core.jobsim;

import java.util.List;

/**
 * SDR, PTR, WTR and utilization over all submitted jobs, exactly as docs/domain.md section 9 defines them (Dimopoulos's
 * dissertation (2018) section 4.2 for SDR and PTR, Justice (Dimopoulos et al., 2019) section IV for WTR). Ratios over
 * an empty denominator are 0.
 */
public final class RunMetrics {

    private RunMetrics() {
    }

    /**
     * @param jobs
     *            every submitted job's outcome
     * @param capacity
     *            cluster CPUs
     * @param spanMillis
     *            from the first submission to the last event
     * @param fairness
     *            sampled fairness
     * @param equality
     *            sampled equality
     */
    public static Summary summarize(List<JobOutcome> jobs, int capacity, long spanMillis, double fairness,
            double equality) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1 CPU, got " + capacity);
        }
        if (spanMillis < 0) {
            throw new IllegalArgumentException("span must be >= 0 ms, got " + spanMillis);
        }
        long met = 0;
        double metCompTime = 0;
        double allCompTime = 0;
        double wasted = 0;
        double busy = 0;
        for (JobOutcome job : jobs) {
            allCompTime += job.job().compTimeCpuSeconds();
            busy += job.consumedCpuSeconds();
            if (job.outcome() == Outcome.MET) {
                met++;
                metCompTime += job.job().compTimeCpuSeconds();
            } else if (job.outcome() == Outcome.MISSED || job.outcome() == Outcome.KILLED) {
                wasted += job.consumedCpuSeconds();
            }
        }
        double sdr = jobs.isEmpty() ? 0 : (double) met / jobs.size();
        double ptr = allCompTime == 0 ? 0 : metCompTime / allCompTime;
        double wtr = allCompTime == 0 ? 0 : wasted / allCompTime;
        double utilization = spanMillis == 0 ? 0 : busy / (capacity * (spanMillis / 1000.0));
        return new Summary(sdr, ptr, wtr, utilization, fairness, equality);
    }
}
