package io.fairledger.core.admission;

import java.util.Comparator;

/** A job waiting for admission, with the bookkeeping an {@link AdmissionQueue} keeps about it. */
final class QueuedJob {

    /** Submit time, then id: the tie rule of docs/domain.md section 11. */
    static final Comparator<QueuedJob> BY_SUBMIT_THEN_ID = Comparator
            .comparingLong((QueuedJob j) -> j.request.submitMillis()).thenComparing(j -> j.request.id());

    final JobRequest request;
    final int maxCpus;
    final long deadlineAbsMillis;

    /** Current request while placed in an {@link IndexedAdmissionQueue} bucket, 0 when not placed. */
    long placedRequest;
    /** Position in the {@link IndexedAdmissionQueue}'s list of queued jobs, -1 when not queued there. */
    int indexSlot = -1;
    /** Bumped whenever the job leaves or moves inside an index, so stale index entries can be recognised. */
    int version;
    /** {@link IndexedAdmissionQueue}: group (maxCPUs, or 0 if first placed before its submit instant), -1 if none. */
    int group = -1;
    /** {@link IndexedAdmissionQueue}: fractions between which {@link #placedRequest} holds until its timer. */
    double placedFromFraction;
    double placedUpToFraction;
    /** {@link IndexedAdmissionQueue}: bumped whenever the job's feasibility certificate is replaced or dropped. */
    int feasibilityVersion;
    /** {@link IndexedAdmissionQueue}: bumped whenever the job leaves its group. */
    int membership;

    QueuedJob(JobRequest request, int capacity) {
        this.request = request;
        this.maxCpus = request.maxCpus(capacity);
        this.deadlineAbsMillis = request.deadlineAbsMillis();
    }

    String id() {
        return request.id();
    }

    long ttdMillis(long nowMillis) {
        return deadlineAbsMillis - nowMillis;
    }

    /**
     * {@code deadline / TTD} in double precision: 1 at submission, growing as the deadline nears (the queue-time
     * scaling of Dimopoulos's dissertation (2018) Algorithm 6 line 27); non-increasing in {@code ttdMillis}.
     */
    double urgency(long ttdMillis) {
        return (double) request.deadlineMillis() / ttdMillis;
    }
}
