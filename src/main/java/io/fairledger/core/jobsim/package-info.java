/**
 * The discrete-event simulator of admission policies over job traces, with the papers' execution model, metrics (SDR,
 * PTR, WTR, utilization, fairness) and synthetic workloads, and the tenant-fairness simulation of LTRF against MLRF.
 */
package io.fairledger.core.jobsim;
