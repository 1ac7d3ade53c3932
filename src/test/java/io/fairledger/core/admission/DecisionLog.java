package io.fairledger.core.admission;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A minimal fixed-allocation event driver for tests: completions, then submissions at each instant, one pass; logs
 * every decision with its instant.
 */
final class DecisionLog {

    private DecisionLog() {
    }

    private record Finish(long atMillis, String id, double compTime) {
    }

    static List<String> run(List<JobRequest> jobs, AdmissionPolicy policy) {
        List<String> log = new ArrayList<>();
        PriorityQueue<Finish> finishes = new PriorityQueue<>(
                Comparator.comparingLong(Finish::atMillis).thenComparing(Finish::id));
        PriorityQueue<JobRequest> expiries = new PriorityQueue<>(
                Comparator.comparingLong(JobRequest::deadlineAbsMillis));
        java.util.Map<String, JobRequest> byId = new java.util.HashMap<>();
        int next = 0;
        while (next < jobs.size() || !finishes.isEmpty() || !expiries.isEmpty()) {
            long now = Long.MAX_VALUE;
            if (next < jobs.size()) {
                now = jobs.get(next).submitMillis();
            }
            if (!finishes.isEmpty()) {
                now = Math.min(now, finishes.peek().atMillis());
            }
            if (!expiries.isEmpty()) {
                now = Math.min(now, expiries.peek().deadlineAbsMillis());
            }
            while (!finishes.isEmpty() && finishes.peek().atMillis() == now) {
                Finish f = finishes.poll();
                policy.complete(new JobCompletion(f.id(), now, f.compTime()));
            }
            while (!expiries.isEmpty() && expiries.peek().deadlineAbsMillis() <= now) {
                expiries.poll();
            }
            while (next < jobs.size() && jobs.get(next).submitMillis() == now) {
                JobRequest job = jobs.get(next++);
                byId.put(job.id(), job);
                expiries.add(job);
                policy.submit(job);
            }
            for (Decision d : policy.decide(now)) {
                log.add(now + " " + d);
                if (d instanceof Decision.Admit admit) {
                    JobRequest job = byId.get(admit.jobId());
                    long runtime = (long) Math.ceil(job.compTimeCpuSeconds() * 1000 / admit.cpus());
                    finishes.add(new Finish(now + runtime, job.id(), job.compTimeCpuSeconds()));
                } else if (d instanceof Decision.Kill kill) {
                    finishes.removeIf(f -> f.id().equals(kill.jobId()));
                }
            }
        }
        return log;
    }
}
