package io.fairledger.simulation;

import io.fairledger.core.jobsim.Summary;

/**
 * A finished cell: its metrics and how long the simulation took.
 *
 * @param key
 *            the cell
 * @param jobs
 *            jobs submitted
 * @param summary
 *            SDR, PTR, WTR, utilization, fairness, equality
 * @param seconds
 *            wall-clock seconds of the simulation alone
 */
public record RunSummary(RunKey key, int jobs, Summary summary, double seconds) {
}
