package io.fairledger.core.admission;

import java.util.List;

/**
 * The queue of waiting jobs and one admission pass over it (Dimopoulos's dissertation (2018) Algorithm 6 lines 2-19 and
 * {@code CREATE_OFFERS} lines 36-49, with docs/domain.md section 9's decisions). Two implementations decide
 * identically: {@link RescanAdmissionQueue} follows the pseudocode, {@link IndexedAdmissionQueue} is the fast path.
 *
 * <p>
 * A pass at {@code now}: every queued job with {@code TTD = deadlineAbs - now <= 0}, or with {@code reqCpus >
 * maxCPUs}, is dropped; the others are offered CPUs in priority order ({@link PriorityPolicy}, then submit time, then
 * id). After bootstrap an offer is all-or-nothing and a job that does not fit is skipped; during bootstrap the job gets
 * {@code min(reqCpus, free)} while any CPU is free.
 */
interface AdmissionQueue {

    void add(QueuedJob job);

    /** One pass; admitted and dropped jobs leave the queue. */
    PassResult pass(long nowMillis, int freeCpus);

    int size();

    /** An admitted job and its CPUs. */
    record Offer(QueuedJob job, int cpus) {
    }

    /** Drops by submit time then id; offers in priority order. */
    record PassResult(List<Decision.Drop> drops, List<Offer> offers) {
    }

    static Decision.Drop deadlinePassed(QueuedJob job) {
        return new Decision.Drop(job.id(), "deadline passed while queued");
    }

    static Decision.Drop infeasible(QueuedJob job, long required) {
        return new Decision.Drop(job.id(), "infeasible: needs " + required + " CPUs to meet its deadline, at most "
                + job.maxCpus + " usable");
    }

    /** Full priority order at one instant: policy on (reqCpus, TTD), then submit time, then id. */
    static int compare(PriorityPolicy policy, QueuedJob a, long reqA, QueuedJob b, long reqB, long nowMillis) {
        int byPolicy = policy.compare(reqA, a.ttdMillis(nowMillis), reqB, b.ttdMillis(nowMillis));
        return byPolicy != 0 ? byPolicy : QueuedJob.BY_SUBMIT_THEN_ID.compare(a, b);
    }
}
