package io.fairledger.core.admission;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * The state shared by {@link BaselineFairShare} and {@link ReactiveFairShare}: every job starts at once with its cap
 * {@code maxCPUs}; running jobs share capacity max-min; optionally, jobs still running at their deadline are killed.
 */
final class FairShareAdmission implements AdmissionState {

    private final int capacity;
    private final boolean killAtDeadline;
    private final Map<String, JobRequest> running = new LinkedHashMap<>();
    private final List<JobRequest> submitted = new ArrayList<>();
    private final Set<String> submittedIds = new HashSet<>();
    private final PriorityQueue<JobRequest> byDeadline = new PriorityQueue<>(
            Comparator.comparingLong(JobRequest::deadlineAbsMillis).thenComparingLong(JobRequest::submitMillis)
                    .thenComparing(JobRequest::id));
    private long lastPassMillis = Long.MIN_VALUE;
    private long runningCaps;

    FairShareAdmission(int capacity, boolean killAtDeadline) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1 CPU, got " + capacity);
        }
        this.capacity = capacity;
        this.killAtDeadline = killAtDeadline;
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public void submit(JobRequest job) {
        if (running.containsKey(job.id()) || !submittedIds.add(job.id())) {
            throw new IllegalArgumentException("job " + job.id() + " is already queued or running");
        }
        submitted.add(job);
    }

    @Override
    public void complete(JobCompletion completion) {
        JobRequest job = running.remove(completion.jobId());
        if (job == null) {
            throw new IllegalArgumentException("job " + completion.jobId() + " is not running");
        }
        runningCaps -= job.maxCpus(capacity);
    }

    @Override
    public List<Decision> decide(long nowMillis) {
        if (nowMillis < lastPassMillis) {
            throw new IllegalArgumentException(
                    "event time went backwards: " + nowMillis + " ms after " + lastPassMillis + " ms");
        }
        lastPassMillis = nowMillis;
        List<Decision> decisions = new ArrayList<>();
        if (killAtDeadline) {
            while (!byDeadline.isEmpty() && byDeadline.peek().deadlineAbsMillis() <= nowMillis) {
                JobRequest job = byDeadline.poll();
                if (running.remove(job.id()) == job) {
                    runningCaps -= job.maxCpus(capacity);
                    decisions.add(new Decision.Kill(job.id(), "running at its deadline"));
                }
            }
        }
        for (JobRequest job : submitted) {
            running.put(job.id(), job);
            runningCaps += job.maxCpus(capacity);
            if (killAtDeadline) {
                byDeadline.add(job);
            }
            decisions.add(new Decision.Admit(job.id(), job.maxCpus(capacity)));
        }
        submitted.clear();
        submittedIds.clear();
        return decisions;
    }

    /** Current max-min shares of the running jobs, by id, in admission order. */
    Map<String, Double> shares() {
        int[] caps = running.values().stream().mapToInt(j -> j.maxCpus(capacity)).toArray();
        double[] shares = MaxMinShares.of(caps, capacity);
        Map<String, Double> byId = new LinkedHashMap<>();
        int i = 0;
        for (String id : running.keySet()) {
            byId.put(id, shares[i++]);
        }
        return byId;
    }

    @Override
    public int queuedJobs() {
        return submitted.size();
    }

    @Override
    public int freeCpus() {
        return (int) Math.max(0, capacity - runningCaps);
    }
}
