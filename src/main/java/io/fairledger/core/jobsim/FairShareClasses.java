package io.fairledger.core.jobsim;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The running jobs of a fair-share policy in a {@link JobSimulator} run, in classes of equal cap: every running job
 * with cap {@code c} gets {@code min(c, level)} (the water-filling of
 * {@link io.fairledger.core.admission.MaxMinShares}), so all jobs of one cap drain at one rate. Each cap class keeps a
 * virtual clock (CPU-milliseconds delivered to each of its jobs) and a heap of its jobs by the clock value at which they
 * finish; an event costs O(classes) plus O(log n) per job started or finished, instead of O(n log n). Classes are at
 * most {@code min(capacity, running jobs)}.
 */
final class FairShareClasses {

    /** Work (CPU-milliseconds) below which a fair-share job counts as finished, absorbing rounding. */
    static final double WORK_EPSILON_CPU_MILLIS = 1e-6;

    /** Running fair-share jobs with one cap. */
    static final class CapClass {
        final int cap;
        boolean live;
        int count;
        double clock;
        double rate;
        final PriorityQueue<SimulatedJob> byFinish = new PriorityQueue<>(
                Comparator.comparingDouble((SimulatedJob a) -> a.finishClock).thenComparing(a -> a.job,
                        SimulatedJob.SUBMIT_THEN_ID));

        CapClass(int cap) {
            this.cap = cap;
        }

        /** The first live job, dropping killed ones. */
        SimulatedJob first() {
            while (!byFinish.isEmpty() && byFinish.peek().life.ended()) {
                byFinish.poll();
            }
            return byFinish.peek();
        }
    }

    private final int capacity;
    /** Cap classes by cap; {@code live[0..liveCount)} those with running jobs (or emptied since the last pass), ascending. */
    private final CapClass[] classByCap;
    private CapClass[] live = new CapClass[16];
    private int liveCount;
    /** Earliest completion as of the last {@link #reshare}. */
    private long nextCompletion = Long.MAX_VALUE;

    FairShareClasses(int capacity) {
        this.capacity = capacity;
        this.classByCap = new CapClass[capacity + 1];
    }

    /** Earliest completion at the current rates, or {@link Long#MAX_VALUE}. */
    long nextCompletion() {
        return nextCompletion;
    }

    /** Delivers {@code elapsed} ms of work at the current rates. */
    void drain(long elapsed) {
        for (int k = 0; k < liveCount; k++) {
            live[k].clock += live[k].rate * elapsed;
        }
    }

    /** Moves every job whose work is done into {@code done}. */
    void takeFinished(List<SimulatedJob> done) {
        for (int k = 0; k < liveCount; k++) {
            CapClass c = live[k];
            SimulatedJob a;
            while ((a = c.first()) != null && a.finishClock - c.clock <= WORK_EPSILON_CPU_MILLIS) {
                c.byFinish.poll();
                done.add(a);
            }
        }
    }

    /** Starts {@code a} with cap {@code cap} and {@code workMillis} CPU-milliseconds of work. */
    void start(SimulatedJob a, int cap, double workMillis) {
        CapClass c = liveClass(cap);
        a.capClass = c;
        a.finishClock = c.clock + workMillis;
        c.count++;
        c.byFinish.add(a);
    }

    /** The CPU-milliseconds of work {@code a} has left. */
    static double workLeft(SimulatedJob a) {
        return Math.max(0, a.finishClock - a.capClass.clock);
    }

    /** Number of cap classes (each one group of the allocation sampler). */
    int groups() {
        return liveCount;
    }

    /** Each class's rate, cap and job count, for the allocation sampler. */
    void fill(double[] allocation, int[] demand, int[] count) {
        for (int k = 0; k < liveCount; k++) {
            CapClass c = live[k];
            allocation[k] = c.count == 0 ? 0 : c.rate;
            demand[k] = c.cap;
            count[k] = c.count;
        }
    }

    private CapClass liveClass(int cap) {
        CapClass c = classByCap[cap];
        if (c == null) {
            c = new CapClass(cap);
            classByCap[cap] = c;
        }
        if (!c.live) {
            c.live = true;
            if (liveCount == live.length) {
                live = Arrays.copyOf(live, live.length * 2);
            }
            int at = liveCount;
            while (at > 0 && live[at - 1].cap > cap) {
                live[at] = live[at - 1];
                at--;
            }
            live[at] = c;
            liveCount++;
        }
        return c;
    }

    /**
     * Water-filling over cap classes, ascending: MaxMinShares.of with equal caps grouped; then the earliest
     * completion at these rates, counted from {@code nowMillis}.
     */
    void reshare(long nowMillis) {
        int jobs = 0;
        int kept = 0;
        for (int k = 0; k < liveCount; k++) {
            CapClass c = live[k];
            if (c.count == 0) {
                c.live = false;
                c.byFinish.clear();
            } else {
                live[kept++] = c;
                jobs += c.count;
            }
        }
        Arrays.fill(live, kept, liveCount, null);
        liveCount = kept;
        double left = capacity;
        double level = Double.NaN;
        long next = Long.MAX_VALUE;
        for (int k = 0; k < liveCount; k++) {
            CapClass c = live[k];
            if (Double.isNaN(level)) {
                double even = left / jobs;
                if (c.cap <= even) {
                    c.rate = c.cap;
                    left -= (double) c.cap * c.count;
                    jobs -= c.count;
                } else {
                    level = even;
                }
            }
            if (!Double.isNaN(level)) {
                c.rate = level;
            }
            SimulatedJob a = c.first();
            if (a != null) {
                long wait = (long) Math.ceil(Math.max(0, a.finishClock - c.clock) / c.rate);
                next = Math.min(next, nowMillis + wait);
            }
        }
        nextCompletion = next;
    }
}
