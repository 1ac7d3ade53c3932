package io.fairledger.core.admission;

import java.util.ArrayList;
import java.util.BitSet;
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
 * ({@link Group}).</li>
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
    private final Bucket[] buckets;
    private final BitSet nonEmptyBuckets = new BitSet();
    private final Group[] groups;
    private final BitSet nonEmptyGroups = new BitSet();
    /** Last instants of request and feasibility certificates. */
    private final PriorityQueue<Timer> timers = new PriorityQueue<>();
    /** Largest fractions of feasibility certificates. */
    private final PriorityQueue<Bound> feasibleUpTo = new PriorityQueue<>(Bound.ASCENDING);
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
        this.buckets = new Bucket[capacity + 1];
        this.groups = new Group[capacity + 1];
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
        while (!feasibleUpTo.isEmpty() && feasibleUpTo.peek().fraction < fraction) {
            Bound bound = feasibleUpTo.poll();
            if (bound.version == bound.job.feasibilityVersion) {
                certifyFeasibility(bound.job);
            }
        }
        while (!timers.isEmpty() && timers.peek().atMillis < now) {
            Timer timer = timers.poll();
            if (timer.isCurrent()) {
                if (timer.feasibility) {
                    certifyFeasibility(timer.job);
                } else {
                    certifyRequest(timer.job);
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
        for (int r = nonEmptyBuckets.nextSetBit(0); r >= 0; r = nonEmptyBuckets.nextSetBit(r + 1)) {
            buckets[r] = null;
        }
        nonEmptyBuckets.clear();
        for (int g = nonEmptyGroups.nextSetBit(0); g >= 0; g = nonEmptyGroups.nextSetBit(g + 1)) {
            groups[g] = null;
        }
        nonEmptyGroups.clear();
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
        job.group = g;
        if (groups[g] == null) {
            groups[g] = new Group();
            nonEmptyGroups.set(g);
        }
        Group group = groups[g];
        group.join(job, now, fixedOrder);
        certifyFeasibility(job);
        if (job.indexSlot >= 0 && !group.uniform) {
            certifyRequest(job);
        }
    }

    /** Brings the request certificates of every group whose jobs may fit {@code free} CPUs up to the fraction. */
    private void settleGroupsThatMayFit(int free) {
        for (int g = nonEmptyGroups.nextSetBit(0); g >= 0; g = nonEmptyGroups.nextSetBit(g + 1)) {
            if (g > 0 && estimator.minimalCpus(g, fraction) > free) {
                break;
            }
            if (g > 0 && settledUniformly(g)) {
                continue;
            }
            while (groups[g] != null && !groups[g].from.isEmpty() && groups[g].from.peek().fraction > fraction) {
                Bound bound = groups[g].from.poll();
                if (bound.version == bound.job.version) {
                    certifyRequest(bound.job);
                }
            }
            while (groups[g] != null && !groups[g].upTo.isEmpty() && groups[g].upTo.peek().fraction < fraction) {
                Bound bound = groups[g].upTo.poll();
                if (bound.version == bound.job.version) {
                    certifyRequest(bound.job);
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
        Group group = groups[g];
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
        Group group = groups[g];
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
            for (int r = nonEmptyBuckets.nextSetBit(1); r >= 0 && r <= limit; r = nonEmptyBuckets.nextSetBit(r + 1)) {
                QueuedJob head = buckets[r].head();
                if (!(head.placedFromFraction <= fraction && fraction <= head.placedUpToFraction)) {
                    // placed at an older fraction in a group that cannot fit: it moves above the free CPUs
                    certifyRequest(head);
                    continue scan;
                }
                best = better(best, head, head.placedRequest);
            }
            if (!bootstrapping) {
                for (int g = nonEmptyGroups.nextSetBit(1); g >= 0; g = nonEmptyGroups.nextSetBit(g + 1)) {
                    long request = estimator.minimalCpus(g, fraction);
                    if (request > limit) {
                        break;
                    }
                    if (groups[g].uniform) {
                        best = better(best, groups[g].head(), request);
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
        double upTo = halfwayTo(fraction, estimator.fractionBoundaryGuess(job, ttd, job.maxCpus));
        if (!(upTo >= fraction) || estimator.requiredCpus(job, ttd, upTo) > job.maxCpus) {
            upTo = fraction;
        }
        long lastTtd = changeTtd(job, ttd, job.maxCpus, upTo);
        job.feasibilityVersion++;
        timers.add(new Timer(job.deadlineAbsMillis - lastTtd - 1, job, job.feasibilityVersion, true));
        if (upTo < Double.POSITIVE_INFINITY) {
            feasibleUpTo.add(new Bound(upTo, job, job.feasibilityVersion));
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
        groups[job.group].recertified++;
        double upTo = halfwayTo(fraction, estimator.fractionBoundaryGuess(job, ttd, request));
        if (!(upTo >= fraction) || estimator.requiredCpus(job, ttd, upTo) > request) {
            upTo = fraction;
        }
        double from = Double.NEGATIVE_INFINITY; // requests are at least 1
        if (request > 1) {
            from = halfwayTo(fraction, estimator.fractionBoundaryGuess(job, ttd, request - 1));
            if (!(from <= fraction) || estimator.requiredCpus(job, ttd, from) < request) {
                from = fraction;
            }
        }
        long lastTtd = changeTtd(job, ttd, request, upTo);
        job.version++;
        job.placedRequest = request;
        job.placedFromFraction = from;
        job.placedUpToFraction = upTo;
        int r = (int) request;
        if (buckets[r] == null) {
            buckets[r] = new Bucket(new ArrayList<>());
            nonEmptyBuckets.set(r);
        }
        buckets[r].add(new Entry(job, job.version, fixedOrder));
        Group group = groups[job.group];
        if (from > Double.NEGATIVE_INFINITY) {
            group.add(group.from, new Bound(from, job, job.version));
        }
        if (upTo < Double.POSITIVE_INFINITY) {
            group.add(group.upTo, new Bound(upTo, job, job.version));
        }
        timers.add(new Timer(job.deadlineAbsMillis - lastTtd - 1, job, job.version, false));
    }

    private static double halfwayTo(double from, double to) {
        return Double.isInfinite(to) ? to : from + (to - from) / 2;
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
        if (--groups[job.group].live == 0) {
            groups[job.group] = null;
            nonEmptyGroups.clear(job.group);
        }
        job.group = -1;
        int slot = job.indexSlot;
        QueuedJob last = queued.remove(queued.size() - 1);
        if (last != job) {
            queued.set(slot, last);
            last.indexSlot = slot;
        }
        job.indexSlot = -1;
    }

    private void unplace(QueuedJob job) {
        int r = (int) job.placedRequest;
        job.version++;
        if (--buckets[r].live == 0) {
            buckets[r] = null;
            nonEmptyBuckets.clear(r);
        }
        job.placedRequest = 0;
    }

    /** Drops stale entries once they outnumber the live ones, so the heaps stay O(n). */
    private void compact() {
        if (timers.size() > 3 * queued.size() + 64) {
            timers.removeIf(timer -> !timer.isCurrent());
        }
        if (feasibleUpTo.size() > 2 * queued.size() + 64) {
            feasibleUpTo.removeIf(bound -> bound.version != bound.job.feasibilityVersion);
        }
    }

    /**
     * A TTD at which to look at the job again: at least {@link #lastTtdAbove}, so no change is missed (looking early
     * only re-evaluates an unchanged job). The estimator's guess is taken when one exact evaluation proves it safe,
     * which is the usual case; otherwise the exact search runs. Requires {@code requiredCpus(ttd, f) <= request}.
     */
    private long changeTtd(QueuedJob job, long ttd, long request, double f) {
        long guess = estimator.ttdBoundaryGuess(job, request, f);
        if (guess >= 0 && guess < ttd - 1 && estimator.requiredCpus(job, guess + 1, f) <= request) {
            return guess;
        }
        return lastTtdAbove(job, ttd, request, f);
    }

    /**
     * Largest {@code x} in {@code [1, ttd - 1]} with {@code requiredCpus(x, f) > request}, or 0 when there is none
     * (the next change is then the deadline itself). Galloping from the estimator's guess, then bisection; exact
     * because {@code requiredCpus} is monotone.
     */
    private long lastTtdAbove(QueuedJob job, long ttd, long request, double f) {
        if (ttd <= 1 || estimator.requiredCpus(job, 1, f) <= request) {
            return 0;
        }
        long guess = Math.max(1, Math.min(ttd - 1, estimator.ttdBoundaryGuess(job, request, f)));
        long above; // requiredCpus(above) > request
        long notAbove; // requiredCpus(notAbove) <= request
        if (estimator.requiredCpus(job, guess, f) > request) {
            above = guess;
            notAbove = ttd;
            for (long step = 1; above + step < notAbove; step <<= 1) {
                if (estimator.requiredCpus(job, above + step, f) > request) {
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
                if (estimator.requiredCpus(job, notAbove - step, f) <= request) {
                    notAbove -= step;
                } else {
                    above = notAbove - step;
                    break;
                }
            }
        }
        while (notAbove - above > 1) {
            long mid = above + (notAbove - above) / 2;
            if (estimator.requiredCpus(job, mid, f) > request) {
                above = mid;
            } else {
                notAbove = mid;
            }
        }
        return above;
    }

    /**
     * The jobs of one placed request, in the fixed order; entries of jobs that left are skipped lazily. The heap is
     * built on the first query, so buckets no pass looks at (requests above the free CPUs) cost no ordering work.
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
                if (heap.size() > 2 * live + 16) {
                    heap.removeIf(e -> e.version != e.job.version);
                }
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

    /**
     * The jobs of one {@code maxCPUs}: all members in the fixed order, an upper bound of their urgencies, and the
     * fraction limits of their request certificates while they are placed.
     *
     * <p>
     * In <em>uniform</em> mode the members are not placed: the urgency bound proves they all need {@link
     * #uniformRequest}, so the group offers its first member in the fixed order, and a fraction change costs two
     * evaluations, not one re-certification per member. That is the usual case when deadlines are long against
     * queue times; otherwise the group is in placed mode and its members sit in buckets.
     */
    private static final class Group {
        final PriorityQueue<Bound> from = new PriorityQueue<>(Bound.DESCENDING);
        final PriorityQueue<Bound> upTo = new PriorityQueue<>(Bound.ASCENDING);
        final PriorityQueue<Member> members = new PriorityQueue<>();
        int live;
        /** Request certifications since the urgency bound was last computed. */
        int recertified;
        boolean uniform;
        /** At least every member's urgency at every instant up to {@link #horizon}; valid while not past it. */
        double maxUrgency;
        long horizon = Long.MIN_VALUE;

        void add(PriorityQueue<Bound> heap, Bound bound) {
            heap.add(bound);
            if (heap.size() > 2 * live + 16) {
                heap.removeIf(b -> b.version != b.job.version);
            }
        }

        void join(QueuedJob job, long now, Comparator<QueuedJob> order) {
            live++;
            members.add(new Member(job, job.membership, order));
            if (members.size() > 2 * live + 16) {
                members.removeIf(m -> !m.isCurrent());
            }
            if (horizon >= now && job.ttdMillis(horizon) > 0) {
                maxUrgency = Math.max(maxUrgency, job.urgency(job.ttdMillis(horizon)));
            } else {
                horizon = Long.MIN_VALUE;
            }
        }

        /**
         * A new bound from {@code now} to a horizon 1/1024 of the shortest member's TTD ahead, so urgencies grow by at
         * most about 0.1% up to it: O(members), and only when the old bound ran out.
         */
        void bound(long now) {
            long shortest = Long.MAX_VALUE;
            for (Member member : members) {
                if (member.isCurrent()) {
                    shortest = Math.min(shortest, member.job.ttdMillis(now));
                }
            }
            horizon = now + (shortest >> 10);
            maxUrgency = 0;
            for (Member member : members) {
                if (member.isCurrent()) {
                    maxUrgency = Math.max(maxUrgency, member.job.urgency(member.job.ttdMillis(horizon)));
                }
            }
        }

        QueuedJob head() {
            while (!members.peek().isCurrent()) {
                members.poll();
            }
            return members.peek().job;
        }

        List<QueuedJob> liveMembers() {
            List<QueuedJob> jobs = new ArrayList<>(live);
            for (Member member : members) {
                if (member.isCurrent()) {
                    jobs.add(member.job);
                }
            }
            return jobs;
        }
    }

    /** A job that fits, and its request. */
    private record Candidate(QueuedJob job, long request) {
    }

    /** A group member in the fixed order; stale once the job left the group. */
    private record Member(QueuedJob job, int membership, Comparator<QueuedJob> order) implements Comparable<Member> {
        boolean isCurrent() {
            return membership == job.membership;
        }

        @Override
        public int compareTo(Member other) {
            return order.compare(job, other.job);
        }
    }

    private record Entry(QueuedJob job, int version, Comparator<QueuedJob> order) implements Comparable<Entry> {
        @Override
        public int compareTo(Entry other) {
            return order.compare(job, other.job);
        }
    }

    /** A fraction limit of a certificate. */
    private record Bound(double fraction, QueuedJob job, int version) {
        static final Comparator<Bound> ASCENDING = (a, b) -> Double.compare(a.fraction, b.fraction);
        static final Comparator<Bound> DESCENDING = ASCENDING.reversed();
    }

    /** The last instant of a certificate: a feasibility one or a request one. */
    private record Timer(long atMillis, QueuedJob job, int version, boolean feasibility) implements Comparable<Timer> {
        boolean isCurrent() {
            return version == (feasibility ? job.feasibilityVersion : job.version);
        }

        @Override
        public int compareTo(Timer other) {
            return Long.compare(atMillis, other.atMillis);
        }
    }
}
