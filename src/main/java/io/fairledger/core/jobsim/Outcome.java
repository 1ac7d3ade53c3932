package io.fairledger.core.jobsim;

/** How a simulated job ended (docs/domain.md section 11). */
public enum Outcome {
    /** Ran to completion at or before {@code submit + deadline}. */
    MET,
    /** Ran to completion after its deadline. */
    MISSED,
    /** Rejected by admission control without running. */
    DROPPED,
    /** Terminated while running. */
    KILLED
}
