package io.fairledger.core.admission;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The fast admission pass: decides exactly as {@link RescanAdmissionQueue} without rescanning the queue, also when the
 * estimator learns (Justice's fraction changes with every completed job).
 *
 * <p>
 * A job's request {@code r(f, t)} is non-decreasing in the global fraction {@code f} ({@link RequestEstimator}) and in
 * time (its TTD only shrinks). So one exact evaluation at a corner proves a value for a whole rectangle: if {@code
 * r(fFrom, t0) = r(fUpTo, tUntil) = r0} then {@code r = r0} for every fraction in {@code [fFrom, fUpTo]} and instant in
 * {@code [t0, tUntil]}. Every placed job carries two such certificates, each proved by exact evaluations of the
 * estimator itself (never a formula): its <em>request</em> {@code r0} (a rectangle around the current fraction, then
 * an exact search for its last instant), and its <em>feasibility</em> ({@code r <= maxCPUs} up to a fraction and an
 * instant). Certificates are indexed by their limits: one heap of instants for both, one heap of feasibility fractions,
 * and per group of jobs with equal {@code maxCPUs} two heaps of request fractions (lower and upper limit). A pass
 * re-evaluates only the jobs whose certificate no longer covers the current fraction and instant:
 *
 * <ol>
 * <li>Drops are exact: a job whose feasibility certificate covers {@code (f, now)} is feasible; every other job is
 * evaluated.</li>
 * <li>Only groups that may fit are brought up to date. Once submitted, a job needs at least {@link
 * RequestEstimator#minimalCpus}{@code (maxCPUs, f)}, non-decreasing in {@code maxCPUs}: groups above the free CPUs
 * cannot offer anything and keep requests proved at an older fraction. (A job placed before its submit instant is in
 * group 0, which is always brought up to date.)</li>
 * <li>Jobs sit in buckets of equal placed request; inside a bucket the {@link PriorityPolicy} contract makes the order
 * depend on TTD alone, hence on the absolute deadline, which never changes: each bucket is a heap in a fixed order. The
 * order across buckets changes with time, so it is never stored: a query compares, with the exact comparator at the
 * current instant, the heads of the buckets at or below the free CPUs. A head whose request certificate does not cover
 * the current fraction belongs to a group that cannot fit; it is re-evaluated (it moves above the free CPUs) and the
 * query starts again. Every job that truly fits is in an up-to-date group, hence in its true bucket, and a bucket's
 * head is the first of its true members.</li>
 * <li>Uniform groups: when the estimator {@linkplain RequestEstimator#scalesWithUrgency scales with urgency} and a
 * group's urgency bound proves that all its members need the same request (two evaluations), the members leave their
 * buckets and the group offers its first member in the fixed order; a fraction change then costs no work per member
 * ({@link MaxCpusGroup}).</li>
 * <li>Free CPUs only shrink during a pass, so taking the best job that fits, repeatedly, is the pseudocode's single
 * sweep that skips jobs that do not fit.</li>
 * </ol>
 *
 * <p>
 * Certificates are widened halfway towards the estimator's guess of the next boundary, in fraction and in time, and
 * kept only when an exact evaluation confirms them (otherwise they shrink to the current fraction, which is always
 * valid). Cost of a pass: O(k log n) for the k jobs whose certificate ran out (by time, or by a fraction change that
 * crossed it, counted only in placed groups that may fit), plus O(b + u) per admission for the b non-empty buckets and
 * the u uniform groups at or below the free CPUs. A fraction change is free for jobs whose request it does not change,
 * for all jobs of groups that need more CPUs than are free, and costs two evaluations for a uniform group. A bootstrap
 * change (once per policy) rebuilds everything.
 */
final class IndexedAdmissionQueue implements AdmissionQueue {

    private final RequestEstimator estimator;
    private final PriorityPolicy priority;
    private final Comparator<QueuedJob> fixedOrder;
    private final int capacity;
    private final List<QueuedJob> queued = new ArrayList<>();
    private List<QueuedJob> unplaced = new ArrayList<>();
    private final CertificateIndex index;
    /** Last instants of request and feasibility certificates. */
    private final PriorityQueue<CertificateTimer> timers = new PriorityQueue<>();
    /** Largest fractions of feasibility certificates. */
    private final PriorityQueue<CertificateBound> feasibleUpTo = new PriorityQueue<>(CertificateBound.ASCENDING);
    private boolean started;
    private boolean bootstrapping;

    /* The pass being run. */
    private long now;
    private double fraction;
    private List<QueuedJob> dropped = new ArrayList<>(0);

    /**
     * @param capacity
     *            cluster CPUs: no job's request exceeds it while queued
     */
    IndexedAdmissionQueue(RequestEstimator estimator, PriorityPolicy priority, int capacity) {
        this.estimator = estimator;
        this.priority = priority;
        this.capacity = capacity;
        Comparator<QueuedJob> byDeadline = Comparator.comparingLong(j -> j.deadlineAbsMillis);
        this.fixedOrder = (priority.longerTtdFirstAtEqualRequest() ? byDeadline.reversed() : byDeadline)
                .thenComparing(QueuedJob.BY_SUBMIT_THEN_ID);
        this.index = new CertificateIndex(capacity);
    }

    @Override
    public void add(QueuedJob job) {
        if (job.indexSlot >= 0) {
            throw new IllegalArgumentException("job " + job.id() + " is already queued");
        }
        job.indexSlot = queued.size();
        queued.add(job);
        job.placedRequest = 0;
        job.group = -1;
        unplaced.add(job);
    }

    @Override
    public int size() {
        return queued.size();
    }

    @Override
    public PassResult pass(long nowMillis, int freeCpus) {
        boolean nowBootstrapping = estimator.bootstrapping();
        double nowFraction = estimator.fraction();
        if (!nowBootstrapping && !(nowFraction >= 0 && nowFraction < Double.POSITIVE_INFINITY)) {
            throw new IllegalStateException("the estimator's fraction must be finite and >= 0, got " + nowFraction);
        }
        now = nowMillis;
        fraction = nowFraction;
        dropped = new ArrayList<>(0);
        if (!started || nowBootstrapping != bootstrapping) {
            reset();
            started = true;
            bootstrapping = nowBootstrapping;
        }
        for (QueuedJob job : unplaced) {
            if (job.indexSlot >= 0) {
                enter(job);
            }
        }
        unplaced.clear();
        while (!feasibleUpTo.isEmpty() && feasibleUpTo.peek().fraction() < fraction) {
            CertificateBound bound = feasibleUpTo.poll();
            if (bound.version() == bound.job().feasibilityVersion) {
                certifyFeasibility(bound.job());
            }
        }
        while (!timers.isEmpty() && timers.peek().atMillis() < now) {
            CertificateTimer timer = timers.poll();
            if (timer.isCurrent()) {
                if (timer.feasibility()) {
                    certifyFeasibility(timer.job());
                } else {
                    certifyRequest(timer.job());
                }
            }
        }
        if (freeCpus > 0 && !bootstrapping) {
            settleGroupsThatMayFit(freeCpus);
        }
        List<Offer> offers = offer(freeCpus);
        List<Decision.Drop> drops = new ArrayList<>(dropped.size());
        dropped.sort(QueuedJob.BY_SUBMIT_THEN_ID);
        for (QueuedJob job : dropped) {
            long ttd = job.ttdMillis(nowMillis);
            drops.add(ttd <= 0
                    ? AdmissionQueue.deadlinePassed(job)
                    : AdmissionQueue.infeasible(job, estimator.requiredCpus(job, ttd, fraction)));
        }
        compact();
        return new PassResult(drops, offers);
    }

    /** Forgets every certificate (first pass, bootstrap change): every job is placed again. */
    private void reset() {
        index.clear();
        timers.clear();
        feasibleUpTo.clear();
        for (QueuedJob job : queued) {
            job.version++;
            job.feasibilityVersion++;
            job.placedRequest = 0;
            job.group = -1;
        }
        unplaced = new ArrayList<>(queued);
    }

    private void enter(QueuedJob job) {
        int g = job.ttdMillis(now) > job.request.deadlineMillis() ? 0 : job.maxCpus;
        MaxCpusGroup group = index.join(job, g, now, fixedOrder);
        certifyFeasibility(job);
        if (job.indexSlot >= 0 && !group.uniform) {
            certifyRequest(job);
        }
    }

    /** Brings the request certificates of every group whose jobs may fit {@code free} CPUs up to the fraction. */
    private void settleGroupsThatMayFit(int free) {
        for (int g = index.nextGroup(0); g >= 0; g = index.nextGroup(g + 1)) {
            if (g > 0 && estimator.minimalCpus(g, fraction) > free) {
                break;
            }
            if (g > 0 && settledUniformly(g)) {
                continue;
            }
            while (index.group(g) != null && !index.group(g).from.isEmpty()
                    && index.group(g).from.peek().fraction() > fraction) {
                CertificateBound bound = index.group(g).from.poll();
                if (bound.version() == bound.job().version) {
                    certifyRequest(bound.job());
                }
            }
            while (index.group(g) != null && !index.group(g).upTo.isEmpty()
                    && index.group(g).upTo.peek().fraction() < fraction) {
                CertificateBound bound = index.group(g).upTo.poll();
                if (bound.version() == bound.job().version) {
                    certifyRequest(bound.job());
                }
            }
        }
    }

    /**
     * Puts the group in uniform mode when two evaluations prove that all its members need the same CPUs now (its
     * members then leave their buckets), in placed mode otherwise (every member is certified); true when uniform.
     */
    private boolean settledUniformly(int g) {
        if (!estimator.scalesWithUrgency()) {
            return false;
        }
        MaxCpusGroup group = index.group(g);
        if (uniformRequest(g) == 0 && now > group.horizon
                && (group.uniform || group.recertified >= group.live / 8)) {
            // a new bound costs O(members): in placed mode, only once re-certifications have cost as much
            group.bound(now);
            group.recertified = 0;
        }
        boolean uniform = uniformRequest(g) > 0;
        if (uniform != group.uniform) {
            group.uniform = uniform;
            group.from.clear();
            group.upTo.clear();
            for (QueuedJob member : group.liveMembers()) {
                if (uniform) {
                    if (member.placedRequest > 0) {
                        unplace(member);
                    }
                } else {
                    certifyRequest(member);
                }
            }
        }
        return uniform;
    }

    /**
     * The request every member of group {@code g} needs now, when the group's urgency bound proves it is the same for
     * all (a member's urgency is at least 1, at most the bound, and requests are monotone in it); 0 otherwise.
     */
    private long uniformRequest(int g) {
        MaxCpusGroup group = index.group(g);
        if (now > group.horizon) {
            return 0;
        }
        long least = estimator.minimalCpus(g, fraction);
        return estimator.cpusAtUrgency(g, group.maxUrgency, fraction) == least ? least : 0;
    }

    private List<Offer> offer(int freeCpus) {
        List<Offer> offers = new ArrayList<>(0);
        int free = freeCpus;
        while (free > 0) {
            Candidate best = bestFitting(bootstrapping ? capacity : Math.min(free, capacity));
            if (best == null) {
                break;
            }
            int cpus = (int) Math.min(best.request, free);
            offers.add(new Offer(best.job, cpus));
            free -= cpus;
            leave(best.job);
        }
        return offers;
    }

    /**
     * The first job in priority order among the buckets up to {@code limit} and the heads of the uniform groups whose
     * request is at most {@code limit} (all settled, since {@code limit} never exceeds the pass's free CPUs), or null.
     */
    private Candidate bestFitting(int limit) {
        scan : while (true) {
            Candidate best = null;
            for (int r = index.nextBucket(1); r >= 0 && r <= limit; r = index.nextBucket(r + 1)) {
                QueuedJob head = index.bucket(r).head();
                if (!(head.placedFromFraction <= fraction && fraction <= head.placedUpToFraction)) {
                    // placed at an older fraction in a group that cannot fit: it moves above the free CPUs
                    certifyRequest(head);
                    continue scan;
                }
                best = better(best, head, head.placedRequest);
            }
            if (!bootstrapping) {
                for (int g = index.nextGroup(1); g >= 0; g = index.nextGroup(g + 1)) {
                    long request = estimator.minimalCpus(g, fraction);
                    if (request > limit) {
                        break;
                    }
                    if (index.group(g).uniform) {
                        best = better(best, index.group(g).head(), request);
                    }
                }
            }
            return best;
        }
    }

    private Candidate better(Candidate best, QueuedJob job, long request) {
        if (best == null || AdmissionQueue.compare(priority, job, request, best.job, best.request, now) < 0) {
            return new Candidate(job, request);
        }
        return best;
    }

    /** Drops the job if it is infeasible now; otherwise proves it feasible up to a fraction and an instant. */
    private void certifyFeasibility(QueuedJob job) {
        long ttd = job.ttdMillis(now);
        if (ttd <= 0 || estimator.requiredCpus(job, ttd, fraction) > job.maxCpus) {
            drop(job);
            return;
        }
        double upTo = CertificateSearch.upTo(estimator, job, ttd, job.maxCpus, fraction);
        long lastTtd = CertificateSearch.changeTtd(estimator, job, ttd, job.maxCpus, upTo);
        job.feasibilityVersion++;
        timers.add(new CertificateTimer(job.deadlineAbsMillis - lastTtd - 1, job, job.feasibilityVersion, true));
        if (upTo < Double.POSITIVE_INFINITY) {
            feasibleUpTo.add(new CertificateBound(upTo, job, job.feasibilityVersion));
        }
    }

    /** Drops the job if it is infeasible now; otherwise puts it in the bucket of its request, with a certificate. */
    private void certifyRequest(QueuedJob job) {
        long ttd = job.ttdMillis(now);
        long request = ttd <= 0 ? 0 : estimator.requiredCpus(job, ttd, fraction);
        if (ttd <= 0 || request > job.maxCpus) {
            drop(job);
            return;
        }
        if (job.placedRequest > 0) {
            unplace(job);
        }
        index.group(job.group).recertified++;
        double upTo = CertificateSearch.upTo(estimator, job, ttd, request, fraction);
        double from = CertificateSearch.from(estimator, job, ttd, request, fraction);
        long lastTtd = CertificateSearch.changeTtd(estimator, job, ttd, request, upTo);
        job.version++;
        job.placedRequest = request;
        job.placedFromFraction = from;
        job.placedUpToFraction = upTo;
        index.place(job, (int) request, fixedOrder);
        MaxCpusGroup group = index.group(job.group);
        if (from > Double.NEGATIVE_INFINITY) {
            group.add(group.from, new CertificateBound(from, job, job.version));
        }
        if (upTo < Double.POSITIVE_INFINITY) {
            group.add(group.upTo, new CertificateBound(upTo, job, job.version));
        }
        timers.add(new CertificateTimer(job.deadlineAbsMillis - lastTtd - 1, job, job.version, false));
    }

    private void drop(QueuedJob job) {
        dropped.add(job);
        leave(job);
    }

    /** Removes an admitted or dropped job from every structure; its index entries become stale. */
    private void leave(QueuedJob job) {
        if (job.placedRequest > 0) {
            unplace(job);
        }
        job.version++;
        job.feasibilityVersion++;
        job.membership++;
        index.leaveGroup(job);
        int slot = job.indexSlot;
        QueuedJob last = queued.remove(queued.size() - 1);
        if (last != job) {
            queued.set(slot, last);
            last.indexSlot = slot;
        }
        job.indexSlot = -1;
    }

    private void unplace(QueuedJob job) {
        index.unplace(job);
    }

    /** Drops stale entries once they outnumber the live ones, so the heaps stay O(n). */
    private void compact() {
        if (timers.size() > 3 * queued.size() + 64) {
            timers.removeIf(timer -> !timer.isCurrent());
        }
        if (feasibleUpTo.size() > 2 * queued.size() + 64) {
            feasibleUpTo.removeIf(bound -> bound.version() != bound.job().feasibilityVersion);
        }
    }

    /** A job that fits, and its request. */
    private record Candidate(QueuedJob job, long request) {
    }
}
