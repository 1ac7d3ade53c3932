package io.fairledger.core.admission;

import java.util.ArrayList;
import java.util.List;

/**
 * The admission pass as the papers' pseudocode runs it (Dimopoulos's dissertation (2018) Algorithm 6): every pass
 * recomputes every queued job's request, drops the infeasible ones, sorts the rest by priority and offers in that
 * order. O(n log n) per pass. Kept as the reference the fast {@link IndexedAdmissionQueue} is tested and benchmarked
 * against.
 */
final class RescanAdmissionQueue implements AdmissionQueue {

    private final RequestEstimator estimator;
    private final PriorityPolicy priority;
    private List<QueuedJob> jobs = new ArrayList<>();

    RescanAdmissionQueue(RequestEstimator estimator, PriorityPolicy priority) {
        this.estimator = estimator;
        this.priority = priority;
    }

    @Override
    public void add(QueuedJob job) {
        jobs.add(job);
    }

    @Override
    public PassResult pass(long nowMillis, int freeCpus) {
        List<QueuedJob> dropped = new ArrayList<>();
        List<Decision.Drop> drops = new ArrayList<>();
        List<QueuedJob> feasible = new ArrayList<>();
        for (QueuedJob job : jobs) {
            long ttd = job.ttdMillis(nowMillis);
            if (ttd <= 0) {
                dropped.add(job);
                continue;
            }
            long required = estimator.requiredCpus(job, ttd);
            if (required > job.maxCpus) {
                dropped.add(job);
                continue;
            }
            job.placedRequest = required;
            feasible.add(job);
        }
        dropped.sort(QueuedJob.BY_SUBMIT_THEN_ID);
        for (QueuedJob job : dropped) {
            long ttd = job.ttdMillis(nowMillis);
            drops.add(ttd <= 0
                    ? AdmissionQueue.deadlinePassed(job)
                    : AdmissionQueue.infeasible(job, estimator.requiredCpus(job, ttd)));
        }
        feasible.sort((a, b) -> AdmissionQueue.compare(priority, a, a.placedRequest, b, b.placedRequest, nowMillis));
        boolean bootstrapping = estimator.bootstrapping();
        List<Offer> offers = new ArrayList<>();
        List<QueuedJob> waiting = new ArrayList<>();
        int free = freeCpus;
        for (QueuedJob job : feasible) {
            long required = job.placedRequest;
            if (bootstrapping && free > 0) {
                int cpus = (int) Math.min(required, free);
                offers.add(new Offer(job, cpus));
                free -= cpus;
            } else if (!bootstrapping && required <= free) {
                offers.add(new Offer(job, (int) required));
                free -= (int) required;
            } else {
                waiting.add(job);
            }
        }
        jobs = waiting;
        return new PassResult(drops, offers);
    }

    @Override
    public int size() {
        return jobs.size();
    }
}
