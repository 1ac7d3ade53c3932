package io.fairledger.core.admission;

/** A job a fixed-allocation policy has started, with the CPUs it holds. */
record RunningJob(JobRequest request, int cpus, long startMillis) {
}
