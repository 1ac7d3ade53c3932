package io.fairledger.admission;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fairledger.core.admission.AdmissionPolicy;
import io.fairledger.core.admission.Decision;
import io.fairledger.core.admission.JobCompletion;
import io.fairledger.core.admission.JobRequest;
import io.fairledger.core.admission.Justice;
import io.fairledger.core.admission.Pythia;
import io.fairledger.core.jobsim.JobOutcome;
import io.fairledger.core.jobsim.Outcome;
import io.fairledger.core.jobsim.RunMetrics;
import io.fairledger.core.jobsim.Summary;
import io.fairledger.core.model.TenantPath;
import io.fairledger.core.workflow.FlowTimePlan;
import io.fairledger.core.workflow.FlowTimePlanner;
import io.fairledger.core.workflow.JobWindow;
import io.fairledger.core.workflow.LexMinMaxPlanner;
import io.fairledger.core.workflow.WaveDemandDecomposer;
import io.fairledger.core.workflow.Workflow;
import io.fairledger.core.workflow.WorkflowJob;
import io.fairledger.ingest.schema.Decoded;
import io.fairledger.ingest.schema.EventDecoder;
import io.fairledger.ingest.schema.EventTopics;
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
 */
public final class ClusterAdmission {

    /** Where a job stands. */
    public enum Status {
        QUEUED, RUNNING, COMPLETED, DROPPED, KILLED,
        /** Submitted without a deadline (Kafka {@code JobSubmitted} with none): not admission-controlled. */
        UNMANAGED
    }

    /**
     * The numbers behind a decision, taken at its pass. {@code fraction} is Justice's corrected CPU fraction
     * ({@link Justice#allocationFraction()}, 1 during bootstrap) or Pythia's CPU fraction; {@code requiredCpus} is
     * Justice's {@code reqCpus} ({@link Justice#requiredCpus}); {@code queueTimeScaling} is {@code deadline / TTD};
     * {@code priority} is {@code requiredCpus / TTD} in CPUs per second, the queue order (smallest first);
     * {@code freeCpus} were free before the pass. Null where the policy has no such number or the TTD is over.
     */
    public record Explanation(String policy, int capacity, int maxCpus, long deadlineMillis, long ttdMillis,
            Double queueTimeScaling, Double fraction, Long requiredCpus, Double priority, int freeCpus,
            long completionsLearned) {
    }

    /** One step of a job's history. */
    public record Change(long position, Instant at, String outcome, Integer cpus, String reason,
            Explanation explanation) {
    }

    /** A decision as published (Kafka topic {@code fairledger.admission-decisions}) and returned. */
    public record DecisionEvent(String cluster, long position, Instant at, String policy, String jobId,
            String tenant, String outcome, Integer cpus, String reason) {
    }

    /** What applying one row did: the decisions, and why the row was refused when it was. */
    public record Applied(long position, List<DecisionEvent> decisions, String refusal) {
    }

    /** A job as the API shows it. */
    public record JobView(String cluster, String id, String tenant, int tasks, Instant submittedAt,
            Instant deadlineAt, Double estimatedCpuSeconds, Status status, int cpus, List<Change> history) {
    }

    /** A workflow's decomposition and plan, as computed when it was applied. */
    public record WorkflowView(String cluster, String id, String tenant, Instant submittedAt, Instant deadlineAt,
            String status, String reason, List<JobDeadline> jobs, Plan plan) {
    }

    /** A workflow job's window from the decomposition. */
    public record JobDeadline(String jobId, Instant releaseAt, Instant deadlineAt, long[] cpusPerSlot) {
    }

    /**
     * The slot plan of every workflow active at the submission: {@code method} is {@code lex-min-max} or {@code edf}
     * (the fallback), {@code leftover[k]} the CPUs slot {@code k} has left for other jobs.
     */
    public record Plan(String method, Instant start, double slotSeconds, int capacity, long[] leftover,
            List<String> lateJobs) {
    }

    /** Upper bound on planned slots, so one workflow cannot ask for unbounded memory. */
    public static final int MAX_SLOTS = 100_000;

    static final ObjectMapper JSON = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private static final class Job {
        final JobRequest request;
        final Double estimate;
        Status status;
        int cpus;
        long admitMillis = -1;
        long endMillis;
        double compTime;
        Outcome outcome;
        final List<Change> history = new ArrayList<>();

        Job(JobRequest request, Double estimate, Status status) {
            this.request = request;
            this.estimate = estimate;
            this.status = status;
            this.compTime = estimate == null ? 0 : estimate;
        }
    }

    private final String cluster;
    private final EventDecoder decoder = new EventDecoder(Clock.systemUTC());
    private PolicySettings settings;
    private int capacity;
    private AdmissionPolicy policy;
    private Instant policySince;
    private long completionsLearned;
    private long now = Long.MIN_VALUE;
    private long position;
    private final Map<String, Job> jobs = new HashMap<>();
    private final Map<String, WorkflowView> workflows = new LinkedHashMap<>();
    private final Map<String, Workflow> activeWorkflows = new LinkedHashMap<>();
    private final Map<String, Long> decisionCounts = new LinkedHashMap<>();

    public ClusterAdmission(String cluster) {
        this.cluster = cluster;
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

    /** Decisions taken so far (replay included), by outcome: admitted, queued, dropped, killed. */
    public Map<String, Long> decisionCounts() {
        return Map.copyOf(decisionCounts);
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
                && jobs.values().stream().anyMatch(j -> j.status == Status.RUNNING);
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
        return workflows.get(id);
    }

    /**
     * SDR, PTR and WTR of the jobs that ended so far (completed, dropped, killed), by {@link RunMetrics} (utilization,
     * fairness and equality are not computed here and are 0). A completed job's compTime is the one reported; a
     * dropped or killed job's is its estimate (0 when none was given).
     */
    public Summary summary() {
        List<JobOutcome> outcomes = new ArrayList<>();
        for (Job j : jobs.values()) {
            if (j.outcome != null) {
                JobRequest r = j.request;
                JobRequest measured = new JobRequest(r.id(), r.submitMillis(), r.tasks(), r.deadlineMillis(),
                        j.compTime, r.tenant());
                long queued = (j.admitMillis >= 0 ? j.admitMillis : j.endMillis) - r.submitMillis();
                outcomes.add(new JobOutcome(measured, j.outcome, j.cpus, j.admitMillis, j.endMillis,
                        Math.max(queued, 0), consumed(j)));
            }
        }
        return RunMetrics.summarize(outcomes, Math.max(capacity, 1), 0, 0, 0);
    }

    private static double consumed(Job j) {
        if (j.admitMillis < 0) {
            return 0;
        }
        return Math.max(0, j.cpus * (j.endMillis - j.admitMillis) / 1000.0);
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
            return refused("no admission policy yet: the log must start with a policy row");
        }
        List<DecisionEvent> out = new ArrayList<>();
        String refusal;
        try {
            refusal = switch (entry.kind()) {
                case LogEntry.POLICY_CHANGE -> changePolicy(read(entry, LogEntry.PolicyChange.class), at, out);
                case LogEntry.HTTP_JOB -> {
                    LogEntry.JobSubmission s = read(entry, LogEntry.JobSubmission.class);
                    double estimate = s.estimatedCpuSeconds() == null ? 0 : s.estimatedCpuSeconds();
                    yield submit(new JobRequest(s.jobId(), entry.eventTimeMs(), s.tasks(), s.deadlineMillis(),
                            estimate, s.tenant()), s.estimatedCpuSeconds(), at, out);
                }
                case LogEntry.HTTP_COMPLETION -> {
                    LogEntry.Completion c = read(entry, LogEntry.Completion.class);
                    yield complete(c.jobId(), entry.eventTimeMs(), c.compTimeCpuSeconds(), c.outcome(), at, out);
                }
                case LogEntry.HTTP_WORKFLOW -> planWorkflow(read(entry, LogEntry.WorkflowSubmission.class),
                        entry.eventTimeMs(), at);
                case LogEntry.TICK -> {
                    pass(at, out, null);
                    yield null;
                }
                case LogEntry.JOB_SUBMITTED, LogEntry.JOB_FINISHED, LogEntry.WORKFLOW_SUBMITTED -> kafka(entry, at,
                        out);
                default -> "unknown admission log row kind '" + entry.kind() + "'";
            };
        } catch (IllegalArgumentException e) {
            refusal = e.getMessage();
        }
        now = Math.max(now, at);
        return new Applied(position, List.copyOf(out), refusal);
    }

    private Applied refused(String why) {
        return new Applied(position, List.of(), why);
    }

    private String kafka(LogEntry entry, long at, List<DecisionEvent> out) {
        String topic = entry.kind().equals(LogEntry.WORKFLOW_SUBMITTED) ? EventTopics.WORKFLOWS : EventTopics.JOBS;
        Decoded decoded = decoder.decode(topic, entry.contentType(), entry.payload());
        if (decoded instanceof Decoded.Rejected rejected) {
            return "undecodable " + entry.kind() + ": " + rejected.rejection().describe();
        }
        FairledgerEvent event = ((Decoded.Ok) decoded).event();
        if (event instanceof JobSubmitted s) {
            if (s.relativeDeadlineSeconds() == null) {
                if (jobs.containsKey(s.jobId())) {
                    return "job " + s.jobId() + " is already known";
                }
                JobRequest r = new JobRequest(s.jobId(), entry.eventTimeMs(), s.requestedTasks(), Long.MAX_VALUE / 4,
                        0, s.tenant());
                Job j = new Job(r, null, Status.UNMANAGED);
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
            List<LogEntry.WorkflowSubmission.Job> list = new ArrayList<>();
            for (WorkflowSubmitted.WorkflowJob j : w.jobs()) {
                if (j.estimatedCpuSeconds() == null) {
                    workflows.put(w.workflowId(), new WorkflowView(cluster, w.workflowId(), w.tenant(),
                            Instant.ofEpochMilli(entry.eventTimeMs()),
                            Instant.ofEpochMilli(entry.eventTimeMs() + w.relativeDeadlineSeconds() * 1000),
                            "NOT_PLANNED", "job " + j.jobId() + " has no estimatedCpuSeconds", List.of(), null));
                    return null;
                }
                list.add(new LogEntry.WorkflowSubmission.Job(j.jobId(), j.requestedTasks(),
                        j.estimatedCpuSeconds() / j.requestedTasks(), 1, j.dependsOn()));
            }
            return planWorkflow(new LogEntry.WorkflowSubmission(w.workflowId(), w.tenant(), w.relativeDeadlineSeconds(),
                    FlowTimePlanner.DEFAULT_DEADLINE_SLACK_SECONDS, FlowTimePlanner.DEFAULT_DEADLINE_SLACK_SECONDS,
                    list), entry.eventTimeMs(), at);
        }
        return "unexpected event " + event.getClass().getSimpleName() + " in the admission log";
    }

    private String submit(JobRequest request, Double estimate, long at, List<DecisionEvent> out) {
        if (jobs.containsKey(request.id())) {
            return "job " + request.id() + " was already submitted to cluster " + cluster;
        }
        jobs.put(request.id(), new Job(request, estimate, Status.QUEUED));
        policy.submit(request);
        pass(at, out, null);
        return null;
    }

    private String complete(String jobId, long finishMillis, double compTime, String reported, long at,
            List<DecisionEvent> out) {
        Job j = jobs.get(jobId);
        if (j == null) {
            return "job " + jobId + " is unknown on cluster " + cluster;
        }
        if (j.status != Status.RUNNING) {
            return "job " + jobId + " is " + j.status.name().toLowerCase() + ", not running: completion ignored";
        }
        policy.complete(new JobCompletion(jobId, finishMillis, compTime));
        completionsLearned++;
        j.status = Status.COMPLETED;
        j.endMillis = Math.max(finishMillis, j.admitMillis);
        j.compTime = compTime;
        boolean met = finishMillis <= j.request.deadlineAbsMillis();
        j.outcome = "KILLED".equals(reported)
                ? Outcome.KILLED
                : met && !"FAILED".equals(reported)
                        ? Outcome.MET
                        : Outcome.MISSED;
        String reason = (met ? "met its deadline" : "missed its deadline")
                + (reported == null || reported.equals("SUCCEEDED") ? "" : "; reported " + reported.toLowerCase());
        j.history.add(new Change(position, Instant.ofEpochMilli(finishMillis), "COMPLETED", j.cpus, reason, null));
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
        Explanation why = explain(j.request, at, freeBefore);
        String outcome;
        Integer cpus = null;
        String reason = null;
        if (d instanceof Decision.Admit a) {
            outcome = "ADMITTED";
            cpus = a.cpus();
            j.status = Status.RUNNING;
            j.cpus = a.cpus();
            j.admitMillis = at;
        } else if (d instanceof Decision.Drop drop) {
            outcome = "DROPPED";
            reason = drop.reason();
            j.status = Status.DROPPED;
            j.endMillis = at;
            j.outcome = Outcome.DROPPED;
        } else if (d instanceof Decision.Kill kill) {
            outcome = "KILLED";
            reason = kill.reason();
            cpus = j.cpus;
            j.status = Status.KILLED;
            j.endMillis = at;
            j.outcome = Outcome.KILLED;
        } else {
            outcome = "QUEUED";
        }
        if (note != null) {
            reason = reason == null ? note : reason + "; " + note;
        }
        decisionCounts.merge(outcome.toLowerCase(), 1L, Long::sum);
        j.history.add(new Change(position, Instant.ofEpochMilli(at), outcome, cpus, reason, why));
        return new DecisionEvent(cluster, position, Instant.ofEpochMilli(at), policy.name(), j.request.id(),
                j.request.tenant(), outcome, cpus, reason);
    }

    private Explanation explain(JobRequest r, long at, int freeCpus) {
        long ttd = r.deadlineAbsMillis() - at;
        Double scaling = ttd > 0 ? (double) r.deadlineMillis() / ttd : null;
        Double fraction = null;
        Long required = null;
        Double priority = null;
        if (policy instanceof Justice justice) {
            fraction = justice.allocationFraction();
            if (ttd > 0) {
                required = justice.requiredCpus(r, at);
                priority = required / (ttd / 1000.0);
            }
        } else if (policy instanceof Pythia pythia) {
            fraction = pythia.cpuFraction();
        }
        return new Explanation(policy.name(), capacity, r.maxCpus(capacity), r.deadlineMillis(), ttd, scaling,
                fraction, required, priority, freeCpus, completionsLearned);
    }

    /**
     * A new policy from {@code at}. Jobs running under the old one keep their CPUs: each is carried into the new policy
     * as a job of as many tasks as it holds CPUs, due at its own deadline (at least 1 ms ahead), admitted in a first
     * pass of the fresh policy (which, fresh, asks maxCPUs); its completion later frees them. Then the queued jobs are
     * submitted again with their own submit times and deadlines, and decided in a second pass.
     */
    private String changePolicy(LogEntry.PolicyChange change, long at, List<DecisionEvent> out) {
        AdmissionPolicy fresh = change.settings().build(change.capacity());
        List<Job> running = jobs.values().stream().filter(j -> j.status == Status.RUNNING)
                .sorted(Comparator.comparing(j -> j.request.id())).toList();
        List<Job> queued = jobs.values().stream().filter(j -> j.status == Status.QUEUED)
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
            policy.submit(new JobRequest(j.request.id(), at, j.cpus, left, (j.cpus - 0.5) * left / 1000.0,
                    j.request.tenant()));
        }
        if (!running.isEmpty()) {
            int free = policy.freeCpus();
            for (Decision d : policy.decide(at)) {
                Job j = jobs.get(d.jobId());
                if (d instanceof Decision.Admit a && a.cpus() == j.cpus) {
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

    private String planWorkflow(LogEntry.WorkflowSubmission s, long startMillis, long at) {
        if (workflows.containsKey(s.workflowId())) {
            return "workflow " + s.workflowId() + " was already submitted to cluster " + cluster;
        }
        List<WorkflowJob> list = new ArrayList<>();
        for (LogEntry.WorkflowSubmission.Job j : s.jobs()) {
            list.add(new WorkflowJob(j.id(), j.tasks(), j.taskRuntimeSeconds(), j.taskCpus(), j.dependsOn()));
        }
        Workflow workflow = new Workflow(s.workflowId(), list, startMillis / 1000.0, s.deadlineSeconds());
        double start = at / 1000.0;
        activeWorkflows.values().removeIf(w -> w.deadlineAbsSeconds() <= start);
        activeWorkflows.put(workflow.id(), workflow);
        double last = activeWorkflows.values().stream().mapToDouble(Workflow::deadlineAbsSeconds).max()
                .orElse(start);
        long slots = Math.max(1, (long) Math.ceil((last - start) / s.slotSeconds()));
        if (slots > MAX_SLOTS) {
            activeWorkflows.remove(workflow.id());
            return "the plan would need " + slots + " slots of " + s.slotSeconds() + " s, more than " + MAX_SLOTS
                    + ": use longer slots";
        }
        long[] caps = new long[(int) slots];
        java.util.Arrays.fill(caps, capacity);
        FlowTimePlan plan;
        try {
            plan = new FlowTimePlanner(s.slotSeconds(), s.deadlineSlackSeconds(), new WaveDemandDecomposer(),
                    new LexMinMaxPlanner()).plan(List.copyOf(activeWorkflows.values()), caps, start);
        } catch (IllegalArgumentException e) {
            activeWorkflows.remove(workflow.id());
            throw e;
        }
        List<JobDeadline> deadlines = new ArrayList<>();
        for (JobWindow w : plan.windows()) {
            if (w.workflowId().equals(workflow.id())) {
                long[] alloc = plan.plan().allocation().get(w.workflowId() + "/" + w.jobId());
                deadlines.add(new JobDeadline(w.jobId(), instant(w.releaseSeconds()), instant(w.deadlineSeconds()),
                        alloc == null ? new long[0] : alloc.clone()));
            }
        }
        Plan summary = new Plan(plan.usedEdf() ? "edf" : "lex-min-max", Instant.ofEpochMilli(at), s.slotSeconds(),
                capacity, plan.plan().leftover(), List.copyOf(plan.plan().lateJobs()));
        workflows.put(workflow.id(), new WorkflowView(cluster, workflow.id(), s.tenant(),
                Instant.ofEpochMilli(startMillis), instant(workflow.deadlineAbsSeconds()), "PLANNED", null,
                List.copyOf(deadlines), summary));
        return null;
    }

    private static Instant instant(double seconds) {
        return Instant.ofEpochMilli(Math.round(seconds * 1000));
    }

    private static <T> T read(LogEntry entry, Class<T> type) {
        try {
            return JSON.readValue(entry.payload(), type);
        } catch (IOException e) {
            throw new IllegalArgumentException("unreadable " + entry.kind() + " row: " + e.getMessage());
        }
    }

    private JobView view(Job j) {
        JobRequest r = j.request;
        Instant deadline = j.status == Status.UNMANAGED ? null : Instant.ofEpochMilli(r.deadlineAbsMillis());
        return new JobView(cluster, r.id(), r.tenant(), r.tasks(), Instant.ofEpochMilli(r.submitMillis()), deadline,
                j.estimate, j.status, j.cpus, List.copyOf(j.history));
    }
}
