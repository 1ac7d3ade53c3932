package io.fairledger.admission;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.fairledger.admission.AdmissionViews.Change;
import io.fairledger.admission.AdmissionViews.Explanation;
import io.fairledger.admission.AdmissionViews.JobView;
import io.fairledger.admission.AdmissionViews.Status;
import io.fairledger.admission.AdmissionViews.WorkflowView;
import io.fairledger.core.admission.AdmissionPolicy;
import io.fairledger.core.admission.Decision;
import io.fairledger.core.admission.JobCompletion;
import io.fairledger.core.admission.JobRequest;
import io.fairledger.core.jobsim.JobLifecycle;
import io.fairledger.core.jobsim.JobOutcome;
import io.fairledger.core.jobsim.RunMetrics;
import io.fairledger.core.jobsim.Summary;
import io.fairledger.core.model.TenantPath;
import io.fairledger.ingest.schema.FairledgerEvent;
import io.fairledger.ingest.schema.JobFinished;
import io.fairledger.ingest.schema.JobSubmitted;
import io.fairledger.ingest.schema.WorkflowSubmitted;

/**
 * The admission state of one cluster: the replay of its admission log, one row after the other, through one
 * {@link AdmissionPolicy} (docs/admission.md, "Serving admissions"). Deterministic: the same rows give the same
 * decisions, histories and plans, which is how replicas and restarts agree. Not thread-safe; the service serialises
 * calls per cluster.
 *
 * <p>
 * Time: each row is applied at {@code max(previous instant, row event time)}, so a late Kafka event never moves the
 * policy's clock backwards. A job keeps its own submit time (its TTD counts from it).
 *
 * <p>
 * Parts: rows are read by {@link AdmissionRows}, jobs follow {@link JobLifecycle} (the simulator's rules), workflows
 * are planned by {@link WorkflowPlans}; a refused row is a typed {@link Refusal}. The views are
 * {@link AdmissionViews}.
 */
public final class ClusterAdmission {

    /** Upper bound on planned slots, so one workflow cannot ask for unbounded memory. */
    public static final int MAX_SLOTS = WorkflowPlans.MAX_SLOTS;

    /** An admission-controlled job (its lifecycle) or an unmanaged one (none), with its history. */
    private static final class Job {
        final JobRequest request;
        final JobLifecycle life;
        final Double estimate;
        double compTime;
        final List<Change> history = new ArrayList<>();

        Job(JobRequest request, Double estimate, boolean managed) {
            this.request = request;
            this.life = managed ? new JobLifecycle(request) : null;
            this.estimate = estimate;
            this.compTime = estimate == null ? 0 : estimate;
        }

        Status status() {
            return life == null ? Status.UNMANAGED : Status.valueOf(life.status().name());
        }
    }

    private final String cluster;
    private final AdmissionRows rows = new AdmissionRows();
    private PolicySettings settings;
    private int capacity;
    private AdmissionPolicy policy;
    private Instant policySince;
    private long completionsLearned;
    private long now = Long.MIN_VALUE;
    private long position;
    private final Map<String, Job> jobs = new HashMap<>();
    private final WorkflowPlans workflows;

    public ClusterAdmission(String cluster) {
        this.cluster = cluster;
        this.workflows = new WorkflowPlans(cluster);
    }

    public String cluster() {
        return cluster;
    }

    /** Position of the last row applied, 0 before any. */
    public long position() {
        return position;
    }

    /** The instant of the last row applied. */
    public long nowMillis() {
        return now;
    }

    /** The current policy's settings, null before the log's first row. */
    public PolicySettings settings() {
        return settings;
    }

    /** The current policy's capacity in CPUs. */
    public int capacity() {
        return capacity;
    }

    /** When the current policy took effect. */
    public Instant policySince() {
        return policySince;
    }

    /** The current policy, null before the first row; callers must hold the cluster's lock. */
    public AdmissionPolicy policy() {
        return policy;
    }

    /** Jobs waiting in the queue. */
    public int queuedJobs() {
        return policy == null ? 0 : policy.queuedJobs();
    }

    /**
     * True when a timer pass could decide something: jobs are queued (their TTD runs out), or jobs run under a kill
     * threshold.
     */
    public boolean needsTimer() {
        if (queuedJobs() > 0) {
            return true;
        }
        return settings != null && settings.killAboveTasks() != null
                && jobs.values().stream().anyMatch(j -> j.status() == Status.RUNNING);
    }

    /** One job, or null. */
    public JobView job(String id) {
        Job j = jobs.get(id);
        return j == null ? null : view(j);
    }

    /** Every job of {@code tenant} or its subtree (YARN queue or Mesos role path), by id: the portal lists them. */
    public List<JobView> jobsOf(TenantPath tenant) {
        return jobs.values().stream().filter(j -> isWithin(j.request.tenant(), tenant)).map(this::view)
                .sorted(Comparator.comparing(JobView::id)).toList();
    }

    private static boolean isWithin(String path, TenantPath tenant) {
        try {
            return TenantPath.parse(path).isWithin(tenant);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** One workflow, or null. */
    public WorkflowView workflow(String id) {
        return workflows.view(id);
    }

    /**
     * SDR, PTR and WTR of the jobs that ended so far (completed, dropped, killed), by {@link RunMetrics} (utilization,
     * fairness and equality are not computed here and are 0). A completed job's compTime is the one reported; a
     * dropped or killed job's is its estimate (0 when none was given).
     */
    public Summary summary() {
        List<JobOutcome> outcomes = new ArrayList<>();
        for (Job j : jobs.values()) {
            if (j.life != null && j.life.ended()) {
                JobRequest r = j.request;
                JobRequest measured = new JobRequest(r.id(), r.submitMillis(), r.tasks(), r.deadlineMillis(),
                        j.compTime, r.tenant());
                outcomes.add(j.life.result(measured, j.life.heldCpuSeconds()));
            }
        }
        return RunMetrics.summarize(outcomes, Math.max(capacity, 1), 0, 0, 0);
    }

    /**
     * Applies the next row of the log.
     *
     * @throws IllegalStateException
     *             if {@code entry} is not the row after the last one applied
     */
    public Applied apply(LogEntry entry) {
        if (entry.position() != position + 1) {
            throw new IllegalStateException("admission log of " + cluster + ": expected position " + (position + 1)
                    + ", got " + entry.position());
        }
        position = entry.position();
        long at = Math.max(now, entry.eventTimeMs());
        if (policy == null && !entry.kind().equals(LogEntry.POLICY_CHANGE)) {
            return new Applied(position, List.of(), Refusal.of(Refusal.Kind.NO_POLICY,
                    "no admission policy yet: the log must start with a policy row"));
        }
        List<DecisionEvent> out = new ArrayList<>();
        Refusal refusal;
        try {
            refusal = switch (entry.kind()) {
                case LogEntry.POLICY_CHANGE -> changePolicy(AdmissionRows.read(entry, LogEntry.PolicyChange.class),
                        at, out);
                case LogEntry.HTTP_JOB -> {
                    LogEntry.JobSubmission s = AdmissionRows.read(entry, LogEntry.JobSubmission.class);
                    double estimate = s.estimatedCpuSeconds() == null ? 0 : s.estimatedCpuSeconds();
                    yield submit(new JobRequest(s.jobId(), entry.eventTimeMs(), s.tasks(), s.deadlineMillis(),
                            estimate, s.tenant()), s.estimatedCpuSeconds(), at, out);
                }
                case LogEntry.HTTP_COMPLETION -> {
                    LogEntry.Completion c = AdmissionRows.read(entry, LogEntry.Completion.class);
                    yield complete(c.jobId(), entry.eventTimeMs(), c.compTimeCpuSeconds(), c.outcome(), at, out);
                }
                case LogEntry.HTTP_WORKFLOW -> workflows.plan(
                        AdmissionRows.read(entry, LogEntry.WorkflowSubmission.class), entry.eventTimeMs(), at,
                        capacity);
                case LogEntry.TICK -> {
                    pass(at, out, null);
                    yield null;
                }
                case LogEntry.JOB_SUBMITTED, LogEntry.JOB_FINISHED, LogEntry.WORKFLOW_SUBMITTED -> kafka(entry, at,
                        out);
                default -> Refusal.of(Refusal.Kind.INVALID, "unknown admission log row kind '" + entry.kind() + "'");
            };
        } catch (IllegalArgumentException e) {
            refusal = Refusal.of(Refusal.Kind.INVALID, e.getMessage());
        }
        now = Math.max(now, at);
        return new Applied(position, List.copyOf(out), refusal);
    }

    private Refusal kafka(LogEntry entry, long at, List<DecisionEvent> out) {
        FairledgerEvent event = rows.event(entry);
        if (event instanceof JobSubmitted s) {
            if (s.relativeDeadlineSeconds() == null) {
                if (jobs.containsKey(s.jobId())) {
                    return Refusal.of(Refusal.Kind.DUPLICATE, "job " + s.jobId() + " is already known");
                }
                JobRequest r = new JobRequest(s.jobId(), entry.eventTimeMs(), s.requestedTasks(), Long.MAX_VALUE / 4,
                        0, s.tenant());
                Job j = new Job(r, null, false);
                j.history.add(new Change(position, Instant.ofEpochMilli(at), "UNMANAGED", null,
                        "submitted without a deadline: not admission-controlled", null));
                jobs.put(s.jobId(), j);
                return null;
            }
            long deadline = Math.multiplyExact(s.relativeDeadlineSeconds(), 1000L);
            return submit(new JobRequest(s.jobId(), entry.eventTimeMs(), s.requestedTasks(), deadline, 0, s.tenant()),
                    null, at, out);
        }
        if (event instanceof JobFinished f) {
            return complete(f.jobId(), entry.eventTimeMs(), f.compTimeCpuSeconds(), f.outcome().name(), at, out);
        }
        if (event instanceof WorkflowSubmitted w) {
            LogEntry.WorkflowSubmission submission = AdmissionRows.workflow(w);
            if (submission == null) {
                workflows.notPlanned(w.workflowId(), w.tenant(), entry.eventTimeMs(),
                        entry.eventTimeMs() + w.relativeDeadlineSeconds() * 1000,
                        "job " + AdmissionRows.unestimatedJob(w) + " has no estimatedCpuSeconds");
                return null;
            }
            return workflows.plan(submission, entry.eventTimeMs(), at, capacity);
        }
        return Refusal.of(Refusal.Kind.INVALID,
                "unexpected event " + event.getClass().getSimpleName() + " in the admission log");
    }

    private Refusal submit(JobRequest request, Double estimate, long at, List<DecisionEvent> out) {
        if (jobs.containsKey(request.id())) {
            return Refusal.of(Refusal.Kind.DUPLICATE,
                    "job " + request.id() + " was already submitted to cluster " + cluster);
        }
        jobs.put(request.id(), new Job(request, estimate, true));
        policy.submit(request);
        pass(at, out, null);
        return null;
    }

    private Refusal complete(String jobId, long finishMillis, double compTime, String reported, long at,
            List<DecisionEvent> out) {
        Job j = jobs.get(jobId);
        if (j == null) {
            return Refusal.of(Refusal.Kind.UNKNOWN_JOB, "job " + jobId + " is unknown on cluster " + cluster);
        }
        if (j.status() != Status.RUNNING) {
            return Refusal.of(Refusal.Kind.NOT_RUNNING, "job " + jobId + " is " + j.status().name().toLowerCase()
                    + ", not running: completion ignored");
        }
        policy.complete(new JobCompletion(jobId, finishMillis, compTime));
        completionsLearned++;
        j.life.complete(finishMillis, JobLifecycle.Report.of(reported));
        j.compTime = compTime;
        boolean met = j.life.metDeadline(finishMillis);
        String reason = (met ? "met its deadline" : "missed its deadline")
                + (reported == null || reported.equals("SUCCEEDED") ? "" : "; reported " + reported.toLowerCase());
        j.history.add(
                new Change(position, Instant.ofEpochMilli(finishMillis), "COMPLETED", j.life.cpus(), reason, null));
        pass(at, out, null);
        return null;
    }

    /** One admission pass at {@code at}; records and returns every decision. */
    private void pass(long at, List<DecisionEvent> out, String note) {
        int freeBefore = policy.freeCpus();
        for (Decision d : policy.decide(at)) {
            out.add(record(d, at, freeBefore, note));
        }
    }

    private DecisionEvent record(Decision d, long at, int freeBefore, String note) {
        Job j = jobs.get(d.jobId());
        Explanation why = Explanation.of(policy, capacity, j.request, at, freeBefore, completionsLearned);
        j.life.apply(d, at);
        String outcome;
        Integer cpus = null;
        String reason = null;
        if (d instanceof Decision.Admit a) {
            outcome = "ADMITTED";
            cpus = a.cpus();
        } else if (d instanceof Decision.Drop drop) {
            outcome = "DROPPED";
            reason = drop.reason();
        } else if (d instanceof Decision.Kill kill) {
            outcome = "KILLED";
            reason = kill.reason();
            cpus = j.life.cpus();
        } else {
            outcome = "QUEUED";
        }
        if (note != null) {
            reason = reason == null ? note : reason + "; " + note;
        }
        j.history.add(new Change(position, Instant.ofEpochMilli(at), outcome, cpus, reason, why));
        return new DecisionEvent(cluster, position, Instant.ofEpochMilli(at), policy.name(), j.request.id(),
                j.request.tenant(), outcome, cpus, reason);
    }

    /**
     * A new policy from {@code at}. Jobs running under the old one keep their CPUs: each is carried into the new policy
     * as a job of as many tasks as it holds CPUs, due at its own deadline (at least 1 ms ahead), admitted in a first
     * pass of the fresh policy (which, fresh, asks maxCPUs); its completion later frees them. Then the queued jobs are
     * submitted again with their own submit times and deadlines, and decided in a second pass.
     */
    private Refusal changePolicy(LogEntry.PolicyChange change, long at, List<DecisionEvent> out) {
        AdmissionPolicy fresh = change.settings().build(change.capacity());
        List<Job> running = jobs.values().stream().filter(j -> j.status() == Status.RUNNING)
                .sorted(Comparator.comparing(j -> j.request.id())).toList();
        List<Job> queued = jobs.values().stream().filter(j -> j.status() == Status.QUEUED)
                .sorted(Comparator.comparingLong((Job j) -> j.request.submitMillis())
                        .thenComparing(j -> j.request.id()))
                .toList();
        boolean first = policy == null;
        policy = fresh;
        settings = change.settings();
        capacity = change.capacity();
        policySince = Instant.ofEpochMilli(at);
        completionsLearned = 0;
        if (first) {
            return null;
        }
        String note = "policy changed to " + settings.policy() + " at position " + position;
        for (Job j : running) {
            long left = Math.max(j.request.deadlineAbsMillis() - at, 1);
            // (cpus - 0.5) CPUs over the time left: Oracle asks exactly cpus, the others (fresh) ask maxCPUs = cpus
            int cpus = j.life.cpus();
            policy.submit(new JobRequest(j.request.id(), at, cpus, left, (cpus - 0.5) * left / 1000.0,
                    j.request.tenant()));
        }
        if (!running.isEmpty()) {
            int free = policy.freeCpus();
            for (Decision d : policy.decide(at)) {
                Job j = jobs.get(d.jobId());
                if (d instanceof Decision.Admit a && a.cpus() == j.life.cpus()) {
                    j.history.add(new Change(position, Instant.ofEpochMilli(at), "CARRIED", a.cpus(),
                            note + ": keeps its CPUs", null));
                } else {
                    out.add(record(d, at, free, note));
                }
            }
        }
        for (Job j : queued) {
            policy.submit(j.request);
        }
        if (!queued.isEmpty()) {
            pass(at, out, note);
        }
        return null;
    }

    private JobView view(Job j) {
        JobRequest r = j.request;
        Instant deadline = j.life == null ? null : Instant.ofEpochMilli(r.deadlineAbsMillis());
        return new JobView(cluster, r.id(), r.tenant(), r.tasks(), Instant.ofEpochMilli(r.submitMillis()), deadline,
                j.estimate, j.status(), j.life == null ? 0 : j.life.cpus(), List.copyOf(j.history));
    }
}
