package io.fairledger.core.jobsim;

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

import io.fairledger.core.admission.AdmissionPolicy;
import io.fairledger.core.admission.AllocationModel;
import io.fairledger.core.admission.Decision;
import io.fairledger.core.admission.JobCompletion;
import io.fairledger.core.admission.JobRequest;
import io.fairledger.core.admission.MaxMinShares;

/**
 * Test oracle: the first, straightforward O(n log n)-per-event JobSimulator (max-min shares recomputed for every running job at every event), kept to check the class-based simulator against. Discrete-event simulation of one {@link AdmissionPolicy} over a job trace, with the papers' execution model and the
 * tie rules of docs/domain.md section 11.
 *
 * <p>
 * Execution: perfect parallelism up to the task count. {@link AllocationModel#FIXED}: a job admitted at {@code s} with
 * {@code c} CPUs finishes at {@code s + compTime / c}. {@link AllocationModel#FAIR_SHARE}: running jobs share capacity
 * max-min (each capped at {@code min(tasks, capacity)}, real-valued), recomputed at every event; remaining work drains
 * at the current share. Events at one instant: completions, then deadline expiries, then submissions, each by submit
 * time then id; then one {@link AdmissionPolicy#decide} pass.
 *
 * <p>
 * Decision: time is kept in whole milliseconds; a finish instant that falls between two milliseconds is rounded up.
 * Deadlines are whole milliseconds, so met/missed is decided exactly as with real-valued time. Cost: O(e log n) for e
 * events with fixed allocations, O(e n log n) with fair share (shares recomputed per event).
 */
final class ReferenceJobSimulator {

    /** Work (CPU-milliseconds) below which a fair-share job counts as finished, absorbing rounding. */
    static final double WORK_EPSILON_CPU_MILLIS = 1e-6;

    private static final Comparator<JobRequest> SUBMIT_THEN_ID = Comparator.comparingLong(JobRequest::submitMillis)
            .thenComparing(JobRequest::id);

    /** Runs {@code policy} (fresh, not yet used) over {@code jobs}. */
    public SimulationResult run(List<JobRequest> jobs, AdmissionPolicy policy) {
        return new Run(jobs, policy).execute();
    }

    private static final class Active {
        final JobRequest job;
        boolean running;
        int cpus;
        long admitMillis = -1;
        long finishMillis = -1;
        double remainingCpuMillis;
        double share;

        Active(JobRequest job) {
            this.job = job;
        }
    }

    private static final class Run {
        private final AdmissionPolicy policy;
        private final int capacity;
        private final boolean fairShare;
        private final Deque<JobRequest> unsubmitted;
        private final List<JobRequest> submissionOrder;
        private final Map<String, Active> active = new LinkedHashMap<>();
        private final Map<String, JobOutcome> outcomes = new HashMap<>();
        private final PriorityQueue<Active> fixedCompletions = new PriorityQueue<>(
                Comparator.comparingLong((Active a) -> a.finishMillis).thenComparing(a -> a.job, SUBMIT_THEN_ID));
        private final PriorityQueue<JobRequest> expiries = new PriorityQueue<>(
                Comparator.comparingLong(JobRequest::deadlineAbsMillis).thenComparing(SUBMIT_THEN_ID));
        private final Map<String, Double> allocation = new LinkedHashMap<>();
        private final Map<String, Integer> demand = new HashMap<>();
        private final AllocationSampler sampler = new AllocationSampler();
        private long lastMillis;

        Run(List<JobRequest> jobs, AdmissionPolicy policy) {
            this.policy = policy;
            this.capacity = policy.capacity();
            this.fairShare = policy.allocationModel() == AllocationModel.FAIR_SHARE;
            List<JobRequest> sorted = new ArrayList<>(jobs);
            sorted.sort(SUBMIT_THEN_ID);
            Set<String> ids = new HashSet<>();
            for (JobRequest job : sorted) {
                if (!ids.add(job.id())) {
                    throw new IllegalArgumentException("duplicate job id " + job.id());
                }
            }
            this.submissionOrder = List.copyOf(sorted);
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
                sampler.sampleBefore(now, allocation, demand);
                drainFairShare(now);
                lastMillis = now;
                completeAt(now);
                while (!expiries.isEmpty() && expiries.peek().deadlineAbsMillis() <= now) {
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
            sampler.sampleThrough(lastMillis, allocation, demand);
            if (!active.isEmpty()) {
                throw new IllegalStateException(
                        "policy " + policy.name() + " left jobs unresolved: " + active.keySet());
            }
            List<JobOutcome> ordered = submissionOrder.stream().map(j -> outcomes.get(j.id())).toList();
            Summary summary = RunMetrics.summarize(ordered, capacity, lastMillis - first, sampler.fairness(),
                    sampler.equality());
            return new SimulationResult(policy.name(), ordered, summary);
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
                for (Active a : active.values()) {
                    if (a.running) {
                        long left = (long) Math.ceil(Math.max(0, a.remainingCpuMillis) / a.share);
                        next = Math.min(next, lastMillis + left);
                    }
                }
            }
            while (!expiries.isEmpty() && !active.containsKey(expiries.peek().id())) {
                expiries.poll();
            }
            if (!expiries.isEmpty()) {
                next = Math.min(next, expiries.peek().deadlineAbsMillis());
            }
            return next;
        }

        private void drainFairShare(long now) {
            if (!fairShare) {
                return;
            }
            long elapsed = now - lastMillis;
            for (Active a : active.values()) {
                if (a.running) {
                    a.remainingCpuMillis -= a.share * elapsed;
                }
            }
        }

        private void completeAt(long now) {
            List<Active> done = new ArrayList<>();
            if (fairShare) {
                for (Active a : active.values()) {
                    if (a.running && a.remainingCpuMillis <= WORK_EPSILON_CPU_MILLIS) {
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
            Active a = new Active(job);
            active.put(job.id(), a);
            allocation.put(job.id(), 0.0);
            demand.put(job.id(), job.maxCpus(capacity));
            expiries.add(job);
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
                    a.remainingCpuMillis = work;
                } else {
                    a.finishMillis = now + (long) Math.ceil(work / admit.cpus());
                    fixedCompletions.add(a);
                    allocation.put(a.job.id(), (double) admit.cpus());
                }
            } else if (decision instanceof Decision.Drop) {
                resolve(a, Outcome.DROPPED, now, 0);
            } else if (decision instanceof Decision.Kill) {
                double consumed = fairShare
                        ? (a.job.compTimeCpuSeconds() * 1000.0 - Math.max(0, a.remainingCpuMillis)) / 1000.0
                        : a.cpus * (now - a.admitMillis) / 1000.0;
                fixedCompletions.remove(a);
                resolve(a, Outcome.KILLED, now, consumed);
            }
        }

        private void resolve(Active a, Outcome outcome, long now, double consumed) {
            long queued = (a.admitMillis >= 0 ? a.admitMillis : now) - a.job.submitMillis();
            outcomes.put(a.job.id(),
                    new JobOutcome(a.job, outcome, a.cpus, a.admitMillis, now, queued, consumed));
            active.remove(a.job.id());
            allocation.remove(a.job.id());
            demand.remove(a.job.id());
        }

        private void reshare() {
            List<Active> running = active.values().stream().filter(a -> a.running).toList();
            int[] caps = running.stream().mapToInt(a -> a.cpus).toArray();
            double[] shares = MaxMinShares.of(caps, capacity);
            for (int i = 0; i < shares.length; i++) {
                running.get(i).share = shares[i];
                allocation.put(running.get(i).job.id(), shares[i]);
            }
        }
    }
}
