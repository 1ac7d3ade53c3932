package io.fairledger.core.admission;

/** How a policy's admitted jobs hold CPUs while they run (docs/domain.md section 11). */
public enum AllocationModel {
    /** The CPUs given at admission are held, unchanged, until the job finishes or is killed. */
    FIXED,
    /** Running jobs share capacity max-min, each capped at its {@code maxCPUs}, recomputed at every event. */
    FAIR_SHARE
}
