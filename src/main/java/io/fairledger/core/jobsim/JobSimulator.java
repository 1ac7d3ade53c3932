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
import java.util.function.Function;
import java.util.function.IntConsumer;

import io.fairledger.core.admission.AdmissionPolicy;
import io.fairledger.core.admission.AllocationModel;
import io.fairledger.core.admission.Decision;
import io.fairledger.core.admission.JobCompletion;
import io.fairledger.core.admission.JobRequest;

/**
 * Discrete-event simulation of one {@link AdmissionPolicy} over a job trace, with the papers' execution model and the
 * tie rules of docs/domain.md section 11.
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
 * Fair share in classes ({@link FairShareClasses}): all running jobs of one cap drain at one rate, so an event costs
 * O(classes) plus O(log n) per job started or finished, instead of O(n log n). Each job's states and outcome follow
 * {@link JobLifecycle}, the rules the server's admission state uses too.
 *
 * <p>
 * Decision: time is kept in whole milliseconds; a finish instant that falls between two milliseconds is rounded up.
 * Deadlines are whole milliseconds, so met/missed is decided exactly as with real-valued time.
 */
public final class JobSimulator {

    /** How a job with a fixed allocation runs. */
    public enum ExecutionModel {
        /** The papers': {@code compTime / cpus}. */
        PERFECT_PARALLELISM,
        /** Task waves when the job's task durations are known, perfect parallelism otherwise. */
        TASK_WAVES
    }

    private static final Comparator<JobRequest> SUBMIT_THEN_ID = SimulatedJob.SUBMIT_THEN_ID;

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

    private final class Run implements AllocationSampler.State {
        private final AdmissionPolicy policy;
        private final int capacity;
        private final boolean fairShare;
        private final Deque<JobRequest> unsubmitted;
        private final List<JobRequest> submissionOrder;
        private final Map<String, SimulatedJob> active = new LinkedHashMap<>();
        private final Map<String, JobOutcome> outcomes = new HashMap<>();
        private final PriorityQueue<SimulatedJob> fixedCompletions = new PriorityQueue<>(
                Comparator.comparingLong((SimulatedJob a) -> a.finishMillis).thenComparing(a -> a.job,
                        SUBMIT_THEN_ID));
        private final PriorityQueue<SimulatedJob> expiries = new PriorityQueue<>(
                Comparator.comparingLong((SimulatedJob a) -> a.job.deadlineAbsMillis()).thenComparing(a -> a.job,
                        SUBMIT_THEN_ID));
        /** The running jobs of a fair-share policy, null for a fixed one. */
        private final FairShareClasses classes;
        private final AllocationSampler sampler = new AllocationSampler();
        private long lastMillis;

        Run(List<JobRequest> jobs, AdmissionPolicy policy) {
            this.policy = policy;
            this.capacity = policy.capacity();
            this.fairShare = policy.allocationModel() == AllocationModel.FAIR_SHARE;
            this.classes = fairShare ? new FairShareClasses(capacity) : null;
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
                    classes.reshare(lastMillis);
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
            return fairShare ? classes.groups() : active.size();
        }

        @Override
        public void fill(double[] allocation, int[] demand, int[] count) {
            if (fairShare) {
                // after every decide pass each job is running; a cap class is one group (cap = demand)
                classes.fill(allocation, demand, count);
                return;
            }
            int i = 0;
            for (SimulatedJob a : active.values()) {
                allocation[i] = a.running() ? a.life.cpus() : 0;
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
                next = Math.min(next, classes.nextCompletion());
            }
            while (!expiries.isEmpty() && expiries.peek().life.ended()) {
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
            classes.drain(now - lastMillis);
        }

        private void completeAt(long now) {
            List<SimulatedJob> done = new ArrayList<>();
            if (fairShare) {
                classes.takeFinished(done);
                done.sort(Comparator.comparing(a -> a.job, SUBMIT_THEN_ID));
            } else {
                while (!fixedCompletions.isEmpty() && fixedCompletions.peek().finishMillis == now) {
                    done.add(fixedCompletions.poll());
                }
            }
            for (SimulatedJob a : done) {
                a.life.complete(now, JobLifecycle.Report.SUCCEEDED);
                resolve(a, fairShare ? a.job.compTimeCpuSeconds() : a.life.heldCpuSeconds());
                policy.complete(new JobCompletion(a.job.id(), now, a.job.compTimeCpuSeconds()));
            }
        }

        private void submit(JobRequest job) {
            sampler.start(job.submitMillis());
            SimulatedJob a = new SimulatedJob(job, job.maxCpus(capacity));
            active.put(job.id(), a);
            expiries.add(a);
            policy.submit(job);
        }

        private void apply(Decision decision, long now) {
            SimulatedJob a = active.get(decision.jobId());
            if (a == null) {
                throw new IllegalStateException("policy " + policy.name() + " decided on unknown job "
                        + decision.jobId() + ": " + decision);
            }
            double workLeft = fairShare && a.running() ? FairShareClasses.workLeft(a) : 0;
            a.life.apply(decision, now);
            if (decision instanceof Decision.Admit admit) {
                double work = a.job.compTimeCpuSeconds() * 1000.0;
                if (fairShare) {
                    classes.start(a, admit.cpus(), work);
                } else {
                    a.finishMillis = now + runMillis(a.job, admit.cpus(), work);
                    fixedCompletions.add(a);
                }
            } else if (decision instanceof Decision.Drop) {
                resolve(a, 0);
            } else if (decision instanceof Decision.Kill) {
                if (!fairShare) {
                    fixedCompletions.remove(a);
                }
                resolve(a, fairShare
                        ? (a.job.compTimeCpuSeconds() * 1000.0 - workLeft) / 1000.0
                        : a.life.heldCpuSeconds());
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

        /** Records the ended job's outcome with what it consumed and forgets it. */
        private void resolve(SimulatedJob a, double consumed) {
            outcomes.put(a.job.id(), a.life.result(a.job, consumed));
            active.remove(a.job.id());
            if (a.capClass != null) {
                a.capClass.count--;
            }
            if ((outcomes.size() & 1023) == 0) {
                progress.accept(outcomes.size());
            }
        }
    }
}
