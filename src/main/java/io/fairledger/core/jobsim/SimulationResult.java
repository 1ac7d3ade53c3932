package io.fairledger.core.jobsim;

import java.util.List;

/** Per-job outcomes (in submission order: submit time, then id) and the run's summary. */
public record SimulationResult(String policy, List<JobOutcome> jobs, Summary summary) {

    public SimulationResult {
        jobs = List.copyOf(jobs);
    }
}
