package io.fairledger.core.admission;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * The event loop shared by the fixed-allocation policies ({@link Justice}, {@link Pythia}, {@link Oracle}): free CPUs,
 * running jobs, selective kills and the admission pass of Dimopoulos's dissertation (2018) Algorithm 6. The policies
 * differ only in their {@link RequestEstimator} and in what a completion teaches them.
 */
final class AdmissionEngine implements AdmissionState {

    /** Learns from a completed job (the queue reads the estimator's new state at the next pass). */
    interface CompletionTracker {
        void track(RunningJob job, JobCompletion completion, boolean metDeadline);
    }

    private final int capacity;
    private final AdmissionQueue queue;
    private final int killAboveTasks;
    private final CompletionTracker tracker;
    private final Map<String, RunningJob> running = new HashMap<>();
    private final Set<String> queuedIds = new HashSet<>();
    private final PriorityQueue<RunningJob> killCandidates = new PriorityQueue<>(
            Comparator.comparingLong((RunningJob r) -> r.request().deadlineAbsMillis())
                    .thenComparingLong(r -> r.request().submitMillis()).thenComparing(r -> r.request().id()));
    private final List<String> submittedSinceLastPass = new ArrayList<>();
    private int freeCpus;
    private long lastPassMillis = Long.MIN_VALUE;

    AdmissionEngine(int capacity, AdmissionQueue queue, int killAboveTasks, CompletionTracker tracker) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1 CPU, got " + capacity);
        }
        if (killAboveTasks < 0) {
            throw new IllegalArgumentException("kill threshold must be >= 0 tasks, got " + killAboveTasks);
        }
        this.capacity = capacity;
        this.queue = queue;
        this.killAboveTasks = killAboveTasks;
        this.tracker = tracker;
        this.freeCpus = capacity;
    }

    static AdmissionQueue queue(boolean indexed, RequestEstimator estimator, PriorityPolicy priority,
            int capacity) {
        return indexed
                ? new IndexedAdmissionQueue(estimator, priority, capacity)
                : new RescanAdmissionQueue(estimator, priority);
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public int freeCpus() {
        return freeCpus;
    }

    @Override
    public int queuedJobs() {
        return queue.size();
    }

    @Override
    public void submit(JobRequest job) {
        if (running.containsKey(job.id()) || queuedIds.contains(job.id())) {
            throw new IllegalArgumentException("job " + job.id() + " is already queued or running");
        }
        queuedIds.add(job.id());
        queue.add(new QueuedJob(job, capacity));
        submittedSinceLastPass.add(job.id());
    }

    @Override
    public void complete(JobCompletion completion) {
        RunningJob job = running.remove(completion.jobId());
        if (job == null) {
            throw new IllegalArgumentException("job " + completion.jobId() + " is not running");
        }
        freeCpus += job.cpus();
        boolean met = completion.finishMillis() <= job.request().deadlineAbsMillis();
        tracker.track(job, completion, met);
    }

    @Override
    public List<Decision> decide(long nowMillis) {
        if (nowMillis < lastPassMillis) {
            throw new IllegalArgumentException(
                    "event time went backwards: " + nowMillis + " ms after " + lastPassMillis + " ms");
        }
        lastPassMillis = nowMillis;
        List<Decision> decisions = new ArrayList<>();
        while (!killCandidates.isEmpty() && killCandidates.peek().request().deadlineAbsMillis() <= nowMillis) {
            RunningJob candidate = killCandidates.poll();
            if (running.get(candidate.request().id()) == candidate) {
                running.remove(candidate.request().id());
                freeCpus += candidate.cpus();
                decisions.add(new Decision.Kill(candidate.request().id(), "running past its deadline with "
                        + candidate.request().tasks() + " tasks, above the kill threshold of " + killAboveTasks));
            }
        }
        AdmissionQueue.PassResult pass = queue.pass(nowMillis, freeCpus);
        for (Decision.Drop drop : pass.drops()) {
            queuedIds.remove(drop.jobId());
            decisions.add(drop);
        }
        for (AdmissionQueue.Offer offer : pass.offers()) {
            RunningJob started = new RunningJob(offer.job().request, offer.cpus(), nowMillis);
            queuedIds.remove(started.request().id());
            running.put(started.request().id(), started);
            freeCpus -= offer.cpus();
            if (started.request().tasks() > killAboveTasks) {
                killCandidates.add(started);
            }
            decisions.add(new Decision.Admit(started.request().id(), offer.cpus()));
        }
        for (String id : submittedSinceLastPass) {
            if (queuedIds.contains(id)) {
                decisions.add(new Decision.Queue(id));
            }
        }
        submittedSinceLastPass.clear();
        return decisions;
    }
}
