package io.fairledger.core.admission;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The fast admission pass: decides exactly as {@link RescanAdmissionQueue} without rescanning the queue.
 *
 * <p>
 * Why it is correct. While the estimator's state is fixed, a job's request {@code reqCpus(t)} is a non-decreasing
 * step function of time (its TTD only shrinks), and the drop conditions are monotone too. So the index stores, per
 * job, its current request and the first millisecond at which that request changes (found by an exact search on the
 * estimator itself, not on a formula), in a heap of change times; a pass re-evaluates only the jobs whose change time
 * has come. Jobs are grouped in buckets of equal request; inside a bucket the {@link PriorityPolicy} contract makes the
 * order depend on TTD alone, hence on the absolute deadline, which never changes: each bucket is a heap in a fixed
 * order. The priority order across buckets does change with time (for {@code reqCpus/TTD} two jobs can swap), so it is
 * never stored: a query compares the heads of the buckets that fit, with the exact comparator, at the current
 * instant. The best job that fits is the best head among buckets with request at most the free CPUs. Because free CPUs
 * only shrink during a pass, taking that best fitting job repeatedly is the same as the pseudocode's single sweep that
 * skips jobs that do not fit.
 *
 * <p>
 * Cost. A submission or a timer pass costs O(k log n) for the k jobs whose request changed, plus O(b) per admission
 * for the b non-empty buckets at or below the free CPUs (b is at most the capacity). When the estimator's state
 * changes (Justice after each completion) the index is rebuilt lazily at the next pass in O(n log n), as the rescan.
 */
final class IndexedAdmissionQueue implements AdmissionQueue {

    private final RequestEstimator estimator;
    private final PriorityPolicy priority;
    private final Comparator<QueuedJob> fixedOrder;
    private final TreeSet<QueuedJob> queued;
    private final TreeMap<Long, Bucket> buckets = new TreeMap<>();
    private final PriorityQueue<Change> changes = new PriorityQueue<>(
            Comparator.comparingLong((Change c) -> c.atMillis));
    private final List<QueuedJob> unplaced = new ArrayList<>();
    private boolean rebuildNeeded = true;

    IndexedAdmissionQueue(RequestEstimator estimator, PriorityPolicy priority) {
        this.estimator = estimator;
        this.priority = priority;
        Comparator<QueuedJob> byDeadline = Comparator.comparingLong(j -> j.deadlineAbsMillis);
        this.fixedOrder = (priority.longerTtdFirstAtEqualRequest() ? byDeadline.reversed() : byDeadline)
                .thenComparing(QueuedJob.BY_SUBMIT_THEN_ID);
        this.queued = new TreeSet<>(fixedOrder);
    }

    @Override
    public void add(QueuedJob job) {
        if (!queued.add(job)) {
            throw new IllegalArgumentException("job " + job.id() + " is already queued");
        }
        job.placedRequest = 0;
        unplaced.add(job);
    }

    @Override
    public void estimatesChanged() {
        rebuildNeeded = true;
    }

    @Override
    public int size() {
        return queued.size();
    }

    @Override
    public PassResult pass(long nowMillis, int freeCpus) {
        List<QueuedJob> dropped = new ArrayList<>();
        if (rebuildNeeded) {
            rebuild(nowMillis, dropped);
        } else {
            for (QueuedJob job : unplaced) {
                place(job, nowMillis, dropped);
            }
            while (!changes.isEmpty() && changes.peek().atMillis <= nowMillis) {
                Change change = changes.poll();
                QueuedJob job = change.job;
                if (change.version == job.version && job.placedRequest > 0) {
                    unplace(job);
                    place(job, nowMillis, dropped);
                }
            }
        }
        unplaced.clear();
        List<Decision.Drop> drops = new ArrayList<>(dropped.size());
        dropped.sort(QueuedJob.BY_SUBMIT_THEN_ID);
        for (QueuedJob job : dropped) {
            queued.remove(job);
            long ttd = job.ttdMillis(nowMillis);
            drops.add(ttd <= 0
                    ? AdmissionQueue.deadlinePassed(job)
                    : AdmissionQueue.infeasible(job, estimator.requiredCpus(job, ttd)));
        }
        return new PassResult(drops, offer(nowMillis, freeCpus));
    }

    private List<Offer> offer(long nowMillis, int freeCpus) {
        boolean bootstrapping = estimator.bootstrapping();
        List<Offer> offers = new ArrayList<>();
        int free = freeCpus;
        while (free > 0) {
            Map<Long, Bucket> candidates = bootstrapping ? buckets : buckets.headMap((long) free, true);
            QueuedJob best = null;
            for (Bucket bucket : candidates.values()) {
                QueuedJob head = bucket.head();
                if (best == null || AdmissionQueue.compare(priority, head, head.placedRequest, best,
                        best.placedRequest, nowMillis) < 0) {
                    best = head;
                }
            }
            if (best == null) {
                break;
            }
            int cpus = (int) Math.min(best.placedRequest, free);
            offers.add(new Offer(best, cpus));
            free -= cpus;
            unplace(best);
            queued.remove(best);
        }
        return offers;
    }

    private void rebuild(long nowMillis, List<QueuedJob> dropped) {
        buckets.clear();
        changes.clear();
        List<Change> fresh = new ArrayList<>(queued.size());
        for (QueuedJob job : queued) {
            job.version++;
            job.placedRequest = 0;
            Change change = placeWithoutSchedule(job, nowMillis, dropped);
            if (change != null) {
                fresh.add(change);
            }
        }
        changes.addAll(fresh);
        rebuildNeeded = false;
    }

    private void place(QueuedJob job, long nowMillis, List<QueuedJob> dropped) {
        Change change = placeWithoutSchedule(job, nowMillis, dropped);
        if (change != null) {
            changes.add(change);
        }
    }

    private Change placeWithoutSchedule(QueuedJob job, long nowMillis, List<QueuedJob> dropped) {
        long ttd = job.ttdMillis(nowMillis);
        if (ttd <= 0) {
            dropped.add(job);
            return null;
        }
        long required = estimator.requiredCpus(job, ttd);
        if (required > job.maxCpus) {
            dropped.add(job);
            return null;
        }
        job.version++;
        job.placedRequest = required;
        buckets.computeIfAbsent(required, r -> new Bucket(fixedOrder)).add(job);
        return new Change(job.deadlineAbsMillis - lastTtdAbove(job, ttd, required), job, job.version);
    }

    private void unplace(QueuedJob job) {
        Bucket bucket = buckets.get(job.placedRequest);
        job.version++;
        if (--bucket.live == 0) {
            buckets.remove(job.placedRequest);
        }
        job.placedRequest = 0;
    }

    /**
     * Largest {@code x} in {@code [1, ttd - 1]} with {@code requiredCpus(x) > request}, or 0 when there is none (the
     * next change is then the deadline itself). Galloping from the estimator's guess, then bisection; exact because
     * {@code requiredCpus} is monotone.
     */
    private long lastTtdAbove(QueuedJob job, long ttd, long request) {
        if (ttd <= 1 || estimator.requiredCpus(job, 1) <= request) {
            return 0;
        }
        long guess = Math.max(1, Math.min(ttd - 1, estimator.boundaryGuess(job, request)));
        long above; // requiredCpus(above) > request
        long notAbove; // requiredCpus(notAbove) <= request
        if (estimator.requiredCpus(job, guess) > request) {
            above = guess;
            notAbove = ttd;
            for (long step = 1; above + step < notAbove; step <<= 1) {
                if (estimator.requiredCpus(job, above + step) > request) {
                    above += step;
                } else {
                    notAbove = above + step;
                    break;
                }
            }
        } else {
            notAbove = guess;
            above = 1;
            for (long step = 1; notAbove - step > 1; step <<= 1) {
                if (estimator.requiredCpus(job, notAbove - step) <= request) {
                    notAbove -= step;
                } else {
                    above = notAbove - step;
                    break;
                }
            }
        }
        while (notAbove - above > 1) {
            long mid = above + (notAbove - above) / 2;
            if (estimator.requiredCpus(job, mid) > request) {
                above = mid;
            } else {
                notAbove = mid;
            }
        }
        return above;
    }

    /** The jobs of one request, in the fixed order; entries of jobs that left are skipped lazily. */
    private static final class Bucket {
        private final PriorityQueue<Entry> heap;
        private int live;

        Bucket(Comparator<QueuedJob> order) {
            this.heap = new PriorityQueue<>((a, b) -> order.compare(a.job, b.job));
        }

        void add(QueuedJob job) {
            heap.add(new Entry(job, job.version));
            live++;
        }

        QueuedJob head() {
            while (heap.peek().version != heap.peek().job.version) {
                heap.poll();
            }
            return heap.peek().job;
        }
    }

    private record Entry(QueuedJob job, int version) {
    }

    private record Change(long atMillis, QueuedJob job, int version) {
    }
}
