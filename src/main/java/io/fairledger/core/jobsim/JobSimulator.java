package io.fairledger.core.jobsim;

import io.fairledger.core.admission.AdmissionPolicy;
import io.fairledger.core.admission.AllocationModel;
import io.fairledger.core.admission.Decision;
import io.fairledger.core.admission.JobCompletion;
import io.fairledger.core.admission.JobRequest;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.Function;
import java.util.function.IntConsumer;

/**
 * Discrete-event simulation of one {@link AdmissionPolicy} over a job trace, with the papers' execution model and the
 * tie rules of DOMAIN.md section 11.
 *
 * <p>
 * Execution: perfect parallelism up to the task count. {@link AllocationModel#FIXED}: a job admitted at {@code s} with
 * {@code c} CPUs finishes at {@code s + compTime / c}; with {@link ExecutionModel#TASK_WAVES} and the job's task
 * durations known, at {@code s + } the makespan of its tasks run in order on {@code c} slots ({@link TaskWaves}).
 * {@link AllocationModel#FAIR_SHARE}: running jobs share capacity max-min (each capped at {@code min(tasks, capacity)},
 * real-valued), recomputed at every event; remaining work drains at the current share (the fluid model whatever the
 * execution model: a fluid share has no waves). Events at one instant: completions, then deadline expiries, then
 * submissions, each by submit time then id; then one {@link AdmissionPolicy#decide} pass.
 *
 * <p>
 * Fair share in classes: every running job with cap {@code c} gets {@code min(c, level)} (the water-filling of
 * {@link io.fairledger.core.admission.MaxMinShares}), so all jobs of one cap drain at one rate. Each cap class keeps a
 * virtual clock (CPU-milliseconds delivered to each of its jobs) and a heap of its jobs by the clock value at which
 * they finish; an event costs O(classes) plus O(log n) per job started or finished, instead of O(n log n). Classes are
 * at most {@code min(capacity, running jobs)}.
 *
 * <p>
 * Decision: time is kept in whole milliseconds; a finish instant that falls between two milliseconds is rounded up.
 * Deadlines are whole milliseconds, so met/missed is decided exactly as with real-valued time.
 */
public final class JobSimulator {

    /** Work (CPU-milliseconds) below which a fair-share job counts as finished, absorbing rounding. */
    static final double WORK_EPSILON_CPU_MILLIS = 1e-6;

    /** How a job with a fixed allocation runs. */
    public enum ExecutionModel {
        /** The papers': {@code compTime / cpus}. */
        PERFECT_PARALLELISM,
        /** Task waves when the job's task durations are known, perfect parallelism otherwise. */
        TASK_WAVES
    }

    private static final Comparator<JobRequest> SUBMIT_THEN_ID = Comparator.comparingLong(JobRequest::submitMillis)
            .thenComparing(JobRequest::id);

    private final ExecutionModel model;
    private final Function<String, double[]> taskSeconds;
    private final IntConsumer progress;

    /** The papers' simulator: perfect parallelism, no progress reports. */
    public JobSimulator() {
        this(ExecutionModel.PERFECT_PARALLELISM, id -> null, done -> {
        });
    }

    /**
     * @param model
     *            how fixed allocations run
     * @param taskSeconds
     *            job id to its task durations in seconds, or null when unknown (read with
     *            {@link ExecutionModel#TASK_WAVES} only)
     * @param progress
     *            told the number of jobs resolved so far, every 1024 jobs and at the end
     */
    public JobSimulator(ExecutionModel model, Function<String, double[]> taskSeconds, IntConsumer progress) {
        this.model = model;
        this.taskSeconds = taskSeconds;
        this.progress = progress;
    }

    /** Runs {@code policy} (fresh, not yet used) over {@code jobs}. */
    public SimulationResult run(List<JobRequest> jobs, AdmissionPolicy policy) {
        return new Run(jobs, policy).execute();
    }

    private static final class Active {
        final JobRequest job;
        final int demand;
        boolean running;
        boolean done;
        int cpus;
        long admitMillis = -1;
        long finishMillis = -1;
        /** Fair share: the class clock value at which the job's work is done. */
        double finishClock;
        CapClass capClass;

        Active(JobRequest job, int demand) {
            this.job = job;
            this.demand = demand;
        }
    }

    /** Running fair-share jobs with one cap. */
    private static final class CapClass {
        final int cap;
        boolean live;
        int count;
        double clock;
        double rate;
        final PriorityQueue<Active> byFinish = new PriorityQueue<>(
                Comparator.comparingDouble((Active a) -> a.finishClock).thenComparing(a -> a.job, SUBMIT_THEN_ID));

        CapClass(int cap) {
            this.cap = cap;
        }

        /** The first live job, dropping killed ones. */
        Active first() {
            while (!byFinish.isEmpty() && byFinish.peek().done) {
                byFinish.poll();
            }
            return byFinish.peek();
        }
    }

    private final class Run implements AllocationSampler.State {
        private final AdmissionPolicy policy;
        private final int capacity;
        private final boolean fairShare;
        private final Deque<JobRequest> unsubmitted;
        private final List<JobRequest> submissionOrder;
        private final Map<String, Active> active = new LinkedHashMap<>();
        private final Map<String, JobOutcome> outcomes = new HashMap<>();
        private final PriorityQueue<Active> fixedCompletions = new PriorityQueue<>(
                Comparator.comparingLong((Active a) -> a.finishMillis).thenComparing(a -> a.job, SUBMIT_THEN_ID));
        private final PriorityQueue<Active> expiries = new PriorityQueue<>(
                Comparator.comparingLong((Active a) -> a.job.deadlineAbsMillis()).thenComparing(a -> a.job,
                        SUBMIT_THEN_ID));
        /** Cap classes by cap; {@code live[0..liveCount)} those with running jobs (or emptied since the last pass), ascending. */
        private final CapClass[] classByCap;
        private CapClass[] live = new CapClass[16];
        private int liveCount;
        /** Earliest fair-share completion as of the last {@link #reshare()}. */
        private long nextFairCompletion = Long.MAX_VALUE;
        private final AllocationSampler sampler = new AllocationSampler();
        private long lastMillis;

        Run(List<JobRequest> jobs, AdmissionPolicy policy) {
            this.policy = policy;
            this.capacity = policy.capacity();
            this.fairShare = policy.allocationModel() == AllocationModel.FAIR_SHARE;
            this.classByCap = new CapClass[fairShare ? capacity + 1 : 0];
            List<JobRequest> sorted = new ArrayList<>(jobs);
            sorted.sort(SUBMIT_THEN_ID);
            Set<String> ids = new HashSet<>();
            for (JobRequest job : sorted) {
                if (!ids.add(job.id())) {
                    throw new IllegalArgumentException("duplicate job id " + job.id());
                }
            }
            this.submissionOrder = sorted;
            this.unsubmitted = new ArrayDeque<>(sorted);
        }

        SimulationResult execute() {
            long first = unsubmitted.isEmpty() ? 0 : unsubmitted.peekFirst().submitMillis();
            lastMillis = first;
            while (true) {
                long now = nextEventMillis();
                if (now == Long.MAX_VALUE) {
                    break;
                }
                sampler.sampleBefore(now, this);
                drainFairShare(now);
                lastMillis = now;
                completeAt(now);
                while (!expiries.isEmpty() && expiries.peek().job.deadlineAbsMillis() <= now) {
                    expiries.poll();
                }
                while (!unsubmitted.isEmpty() && unsubmitted.peekFirst().submitMillis() == now) {
                    submit(unsubmitted.pollFirst());
                }
                for (Decision decision : policy.decide(now)) {
                    apply(decision, now);
                }
                if (fairShare) {
                    reshare();
                }
            }
            sampler.sampleThrough(lastMillis, this);
            if (!active.isEmpty()) {
                throw new IllegalStateException(
                        "policy " + policy.name() + " left jobs unresolved: " + active.keySet());
            }
            progress.accept(outcomes.size());
            List<JobOutcome> ordered = new ArrayList<>(submissionOrder.size());
            for (JobRequest j : submissionOrder) {
                ordered.add(outcomes.get(j.id()));
            }
            Summary summary = RunMetrics.summarize(ordered, capacity, lastMillis - first, sampler.fairness(),
                    sampler.equality());
            return new SimulationResult(policy.name(), ordered, summary);
        }

        @Override
        public int groups() {
            return fairShare ? liveCount : active.size();
        }

        @Override
        public void fill(double[] allocation, int[] demand, int[] count) {
            int i = 0;
            if (fairShare) {
                // after every decide pass each job is running; a cap class is one group (cap = demand)
                for (int k = 0; k < liveCount; k++) {
                    CapClass c = live[k];
                    allocation[i] = c.count == 0 ? 0 : c.rate;
                    demand[i] = c.cap;
                    count[i++] = c.count;
                }
                return;
            }
            for (Active a : active.values()) {
                allocation[i] = a.running ? a.cpus : 0;
                demand[i] = a.demand;
                count[i++] = 1;
            }
        }

        private long nextEventMillis() {
            long next = Long.MAX_VALUE;
            if (!unsubmitted.isEmpty()) {
                next = unsubmitted.peekFirst().submitMillis();
            }
            if (!fixedCompletions.isEmpty()) {
                next = Math.min(next, fixedCompletions.peek().finishMillis);
            }
            if (fairShare) {
                next = Math.min(next, nextFairCompletion);
            }
            while (!expiries.isEmpty() && expiries.peek().done) {
                expiries.poll();
            }
            if (!expiries.isEmpty()) {
                next = Math.min(next, expiries.peek().job.deadlineAbsMillis());
            }
            return next;
        }

        private void drainFairShare(long now) {
            if (!fairShare) {
                return;
            }
            long elapsed = now - lastMillis;
            for (int k = 0; k < liveCount; k++) {
                live[k].clock += live[k].rate * elapsed;
            }
        }

        private void completeAt(long now) {
            List<Active> done = new ArrayList<>();
            if (fairShare) {
                for (int k = 0; k < liveCount; k++) {
                    CapClass c = live[k];
                    Active a;
                    while ((a = c.first()) != null && a.finishClock - c.clock <= WORK_EPSILON_CPU_MILLIS) {
                        c.byFinish.poll();
                        done.add(a);
                    }
                }
                done.sort(Comparator.comparing(a -> a.job, SUBMIT_THEN_ID));
            } else {
                while (!fixedCompletions.isEmpty() && fixedCompletions.peek().finishMillis == now) {
                    done.add(fixedCompletions.poll());
                }
            }
            for (Active a : done) {
                Outcome outcome = now <= a.job.deadlineAbsMillis() ? Outcome.MET : Outcome.MISSED;
                double consumed = fairShare ? a.job.compTimeCpuSeconds() : a.cpus * (now - a.admitMillis) / 1000.0;
                resolve(a, outcome, now, consumed);
                policy.complete(new JobCompletion(a.job.id(), now, a.job.compTimeCpuSeconds()));
            }
        }

        private void submit(JobRequest job) {
            sampler.start(job.submitMillis());
            Active a = new Active(job, job.maxCpus(capacity));
            active.put(job.id(), a);
            expiries.add(a);
            policy.submit(job);
        }

        private void apply(Decision decision, long now) {
            Active a = active.get(decision.jobId());
            if (a == null) {
                throw new IllegalStateException("policy " + policy.name() + " decided on unknown job "
                        + decision.jobId() + ": " + decision);
            }
            if (decision instanceof Decision.Admit admit) {
                a.running = true;
                a.cpus = admit.cpus();
                a.admitMillis = now;
                double work = a.job.compTimeCpuSeconds() * 1000.0;
                if (fairShare) {
                    CapClass c = liveClass(admit.cpus());
                    a.capClass = c;
                    a.finishClock = c.clock + work;
                    c.count++;
                    c.byFinish.add(a);
                } else {
                    a.finishMillis = now + runMillis(a.job, admit.cpus(), work);
                    fixedCompletions.add(a);
                }
            } else if (decision instanceof Decision.Drop) {
                resolve(a, Outcome.DROPPED, now, 0);
            } else if (decision instanceof Decision.Kill) {
                double consumed = fairShare
                        ? (a.job.compTimeCpuSeconds() * 1000.0 - Math.max(0, a.finishClock - a.capClass.clock))
                                / 1000.0
                        : a.cpus * (now - a.admitMillis) / 1000.0;
                if (!fairShare) {
                    fixedCompletions.remove(a);
                }
                resolve(a, Outcome.KILLED, now, consumed);
            }
        }

        private long runMillis(JobRequest job, int cpus, double workMillis) {
            if (model == ExecutionModel.TASK_WAVES) {
                double[] tasks = taskSeconds.apply(job.id());
                if (tasks != null && tasks.length > 0) {
                    return (long) Math.ceil(TaskWaves.makespanSeconds(tasks, cpus) * 1000.0);
                }
            }
            return (long) Math.ceil(workMillis / cpus);
        }

        private void resolve(Active a, Outcome outcome, long now, double consumed) {
            long queued = (a.admitMillis >= 0 ? a.admitMillis : now) - a.job.submitMillis();
            outcomes.put(a.job.id(),
                    new JobOutcome(a.job, outcome, a.cpus, a.admitMillis, now, queued, consumed));
            active.remove(a.job.id());
            a.done = true;
            if (a.capClass != null) {
                a.capClass.count--;
            }
            if ((outcomes.size() & 1023) == 0) {
                progress.accept(outcomes.size());
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
                    live = java.util.Arrays.copyOf(live, live.length * 2);
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
         * completion at these rates.
         */
        private void reshare() {
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
            java.util.Arrays.fill(live, kept, liveCount, null);
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
                Active a = c.first();
                if (a != null) {
                    long wait = (long) Math.ceil(Math.max(0, a.finishClock - c.clock) / c.rate);
                    next = Math.min(next, lastMillis + wait);
                }
            }
            nextFairCompletion = next;
        }
    }
}
