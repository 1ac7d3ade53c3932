package io.fairledger.core.admission;

import java.util.List;

/**
 * Admission control and CPU allocation for deadline jobs on one cluster (Justice (Dimopoulos et al., 2019);
 * Dimopoulos's dissertation (2018); Justice (Dimopoulos et al., 2017)). A policy is a state machine driven by events in
 * non-decreasing event time: record submissions and completions, then call {@link #decide(long)} once; it runs one
 * admission pass and returns what changed.
 *
 * <p>
 * Contract of {@link #decide(long)}: its list holds, in this order, the kills of running jobs, the drops of queued jobs
 * (by submit time, then id), the admissions (in priority order) and a {@link Decision.Queue} for every job submitted
 * since the previous call that is still waiting. Jobs not mentioned keep their state. Implementations are not
 * thread-safe; callers serialise access per cluster.
 */
public interface AdmissionPolicy {

    /** Short name used in reports ({@code justice}, {@code pythia}, ...). */
    String name();

    /** How admitted jobs hold CPUs. */
    AllocationModel allocationModel();

    /** Cluster capacity in CPUs this policy allocates. */
    int capacity();

    /**
     * Records a submitted job; it is considered at the next {@link #decide(long)}.
     *
     * @throws IllegalArgumentException
     *             if a job with the same id is queued or running
     */
    void submit(JobRequest job);

    /**
     * Records that a running job ran to completion, freeing its CPUs and feeding the policy's statistics.
     *
     * @throws IllegalArgumentException
     *             if the job is not running
     */
    void complete(JobCompletion completion);

    /**
     * Runs one admission pass at {@code nowMillis}.
     *
     * @throws IllegalArgumentException
     *             if {@code nowMillis} is earlier than the previous call's
     */
    List<Decision> decide(long nowMillis);

    /** Submits {@code job} and runs the pass at its submit instant: the call a resource manager makes per job. */
    default List<Decision> submitAndDecide(JobRequest job) {
        submit(job);
        return decide(job.submitMillis());
    }

    /** Number of jobs waiting in the queue. */
    int queuedJobs();

    /** CPUs not held by running jobs (for {@link AllocationModel#FAIR_SHARE}, capacity minus the running caps). */
    int freeCpus();
}
