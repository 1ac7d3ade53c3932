package io.fairledger.core.admission;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The fast admission pass: decides exactly as {@link RescanAdmissionQueue} without rescanning the queue.
 *
 * <p>
 * Why it is correct. While the estimator's state is fixed, a job's request {@code reqCpus(t)} is a non-decreasing
 * step function of time (its TTD only shrinks), and the drop conditions are monotone too. So the index stores, per
 * job, its current request and a millisecond at or before the first one at which that request changes (proved by
 * evaluating the estimator itself, not a formula), in a heap of change times; a pass re-evaluates only the jobs whose
 * change time has come. Jobs are grouped in buckets of equal request; inside a bucket the {@link PriorityPolicy} contract makes the
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
 * changes (Justice after each completion) the index is rebuilt at the next pass in O(n) plus the change-time searches,
 * the same order as the rescan.
 */
final class IndexedAdmissionQueue implements AdmissionQueue {

    private final RequestEstimator estimator;
    private final PriorityPolicy priority;
    private final Comparator<QueuedJob> fixedOrder;
    private final List<QueuedJob> queued = new ArrayList<>();
    private final Bucket[] buckets;
    private final BitSet nonEmpty = new BitSet();
    private PriorityQueue<Change> changes = new PriorityQueue<>();
    private final List<QueuedJob> unplaced = new ArrayList<>();
    private boolean rebuildNeeded = true;

    /**
     * @param capacity
     *            cluster CPUs: no job's request exceeds it while queued
     */
    IndexedAdmissionQueue(RequestEstimator estimator, PriorityPolicy priority, int capacity) {
        this.estimator = estimator;
        this.priority = priority;
        Comparator<QueuedJob> byDeadline = Comparator.comparingLong(j -> j.deadlineAbsMillis);
        this.fixedOrder = (priority.longerTtdFirstAtEqualRequest() ? byDeadline.reversed() : byDeadline)
                .thenComparing(QueuedJob.BY_SUBMIT_THEN_ID);
        this.buckets = new Bucket[capacity + 1];
    }

    @Override
    public void add(QueuedJob job) {
        if (job.indexSlot >= 0) {
            throw new IllegalArgumentException("job " + job.id() + " is already queued");
        }
        job.indexSlot = queued.size();
        queued.add(job);
        job.placedRequest = 0;
        unplaced.add(job);
    }

    private void removeFromQueue(QueuedJob job) {
        int slot = job.indexSlot;
        QueuedJob last = queued.remove(queued.size() - 1);
        if (last != job) {
            queued.set(slot, last);
            last.indexSlot = slot;
        }
        job.indexSlot = -1;
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
        List<QueuedJob> dropped = new ArrayList<>(0);
        if (rebuildNeeded) {
            rebuild(nowMillis, dropped);
        } else {
            for (QueuedJob job : unplaced) {
                Change change = place(job, nowMillis, dropped);
                if (change != null) {
                    changes.add(change);
                }
            }
            while (!changes.isEmpty() && changes.peek().atMillis <= nowMillis) {
                Change change = changes.poll();
                QueuedJob job = change.job;
                if (change.version == job.version && job.placedRequest > 0) {
                    unplace(job);
                    Change next = place(job, nowMillis, dropped);
                    if (next != null) {
                        changes.add(next);
                    }
                }
            }
        }
        unplaced.clear();
        List<Decision.Drop> drops = new ArrayList<>(dropped.size());
        dropped.sort(QueuedJob.BY_SUBMIT_THEN_ID);
        for (QueuedJob job : dropped) {
            removeFromQueue(job);
            long ttd = job.ttdMillis(nowMillis);
            drops.add(ttd <= 0
                    ? AdmissionQueue.deadlinePassed(job)
                    : AdmissionQueue.infeasible(job, estimator.requiredCpus(job, ttd)));
        }
        return new PassResult(drops, offer(nowMillis, freeCpus));
    }

    private List<Offer> offer(long nowMillis, int freeCpus) {
        boolean bootstrapping = estimator.bootstrapping();
        List<Offer> offers = new ArrayList<>(0);
        int free = freeCpus;
        while (free > 0) {
            int limit = bootstrapping ? buckets.length - 1 : Math.min(free, buckets.length - 1);
            QueuedJob best = null;
            for (int r = nonEmpty.nextSetBit(1); r >= 0 && r <= limit; r = nonEmpty.nextSetBit(r + 1)) {
                QueuedJob head = buckets[r].head();
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
            removeFromQueue(best);
        }
        return offers;
    }

    private void rebuild(long nowMillis, List<QueuedJob> dropped) {
        for (int r = nonEmpty.nextSetBit(0); r >= 0; r = nonEmpty.nextSetBit(r + 1)) {
            buckets[r] = null;
        }
        nonEmpty.clear();
        List<Change> fresh = new ArrayList<>(queued.size());
        List<List<Entry>> members = new ArrayList<>(buckets.length);
        for (int r = 0; r < buckets.length; r++) {
            members.add(null);
        }
        for (QueuedJob job : queued) {
            job.version++;
            job.placedRequest = 0;
            long ttd = job.ttdMillis(nowMillis);
            long required = ttd <= 0 ? 0 : estimator.requiredCpus(job, ttd);
            if (ttd <= 0 || required > job.maxCpus) {
                dropped.add(job);
                continue;
            }
            job.placedRequest = required;
            int r = (int) required;
            if (members.get(r) == null) {
                members.set(r, new ArrayList<>());
            }
            members.get(r).add(new Entry(job, job.version, fixedOrder));
            fresh.add(new Change(job.deadlineAbsMillis - changeTtd(job, ttd, required), job, job.version));
        }
        for (int r = 0; r < buckets.length; r++) {
            if (members.get(r) != null) {
                buckets[r] = new Bucket(members.get(r));
                nonEmpty.set(r);
            }
        }
        changes = new PriorityQueue<>(fresh);
        rebuildNeeded = false;
    }

    /** Puts the job in the bucket of its current request and returns its next change, or drops it. */
    private Change place(QueuedJob job, long nowMillis, List<QueuedJob> dropped) {
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
        int r = (int) required;
        if (buckets[r] == null) {
            buckets[r] = new Bucket(new ArrayList<>());
            nonEmpty.set(r);
        }
        buckets[r].add(new Entry(job, job.version, fixedOrder));
        return new Change(job.deadlineAbsMillis - changeTtd(job, ttd, required), job, job.version);
    }

    private void unplace(QueuedJob job) {
        int r = (int) job.placedRequest;
        job.version++;
        if (--buckets[r].live == 0) {
            buckets[r] = null;
            nonEmpty.clear(r);
        }
        job.placedRequest = 0;
    }

    /**
     * A TTD at which to look at the job again: at least {@link #lastTtdAbove}, so no change is missed (looking early
     * only re-evaluates an unchanged job). The estimator's guess is taken when one exact evaluation proves it safe,
     * which is the usual case; otherwise the exact search runs.
     */
    private long changeTtd(QueuedJob job, long ttd, long request) {
        long guess = estimator.boundaryGuess(job, request);
        if (guess >= 0 && guess < ttd - 1 && estimator.requiredCpus(job, guess + 1) <= request) {
            return guess;
        }
        return lastTtdAbove(job, ttd, request);
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

    /**
     * The jobs of one request, in the fixed order; entries of jobs that left are skipped lazily. The heap is built on
     * the first query, so buckets no pass looks at (requests above the free CPUs) cost no ordering work.
     */
    private static final class Bucket {
        private List<Entry> pending;
        private PriorityQueue<Entry> heap;
        private int live;

        Bucket(List<Entry> entries) {
            this.pending = entries;
            this.live = entries.size();
        }

        void add(Entry entry) {
            if (heap == null) {
                pending.add(entry);
                if (pending.size() > 2 * live + 16) {
                    pending.removeIf(e -> e.version != e.job.version);
                }
            } else {
                heap.add(entry);
            }
            live++;
        }

        QueuedJob head() {
            if (heap == null) {
                heap = new PriorityQueue<>(pending);
                pending = null;
            }
            while (heap.peek().version != heap.peek().job.version) {
                heap.poll();
            }
            return heap.peek().job;
        }
    }

    private record Entry(QueuedJob job, int version, Comparator<QueuedJob> order) implements Comparable<Entry> {
        @Override
        public int compareTo(Entry other) {
            return order.compare(job, other.job);
        }
    }

    private record Change(long atMillis, QueuedJob job, int version) implements Comparable<Change> {
        @Override
        public int compareTo(Change other) {
            return Long.compare(atMillis, other.atMillis);
        }
    }
}
