package io.fairledger.admission;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.fairledger.admission.AdmissionViews.JobDeadline;
import io.fairledger.admission.AdmissionViews.Plan;
import io.fairledger.admission.AdmissionViews.WorkflowView;
import io.fairledger.core.workflow.FlowTimePlan;
import io.fairledger.core.workflow.FlowTimePlanner;
import io.fairledger.core.workflow.JobWindow;
import io.fairledger.core.workflow.LexMinMaxPlanner;
import io.fairledger.core.workflow.WaveDemandDecomposer;
import io.fairledger.core.workflow.Workflow;
import io.fairledger.core.workflow.WorkflowJob;

/**
 * The workflows of one cluster's admission state and their FlowTime plans ({@link FlowTimePlanner}, docs/admission.md):
 * each submission is planned together with every workflow still active (deadline not passed) over slots from the
 * submission instant to the last active deadline, at most {@link #MAX_SLOTS} of them. A submission the planner rejects
 * leaves the active set as it was. Not thread-safe, like its owner.
 */
final class WorkflowPlans {

    /** Upper bound on planned slots, so one workflow cannot ask for unbounded memory. */
    static final int MAX_SLOTS = 100_000;

    private final String cluster;
    private final Map<String, WorkflowView> workflows = new LinkedHashMap<>();
    private final Map<String, Workflow> active = new LinkedHashMap<>();

    WorkflowPlans(String cluster) {
        this.cluster = cluster;
    }

    /** One workflow, or null. */
    WorkflowView view(String id) {
        return workflows.get(id);
    }

    /** Records a workflow that cannot be planned, saying why. */
    void notPlanned(String id, String tenant, long startMillis, long deadlineMillis, String reason) {
        workflows.put(id, new WorkflowView(cluster, id, tenant, Instant.ofEpochMilli(startMillis),
                Instant.ofEpochMilli(deadlineMillis), "NOT_PLANNED", reason, List.of(), null));
    }

    /**
     * Plans the submission at {@code at} on {@code capacity} CPUs per slot; null, or the refusal.
     *
     * @throws IllegalArgumentException
     *             when the planner rejects the workflow (a cycle, an unknown dependency)
     */
    Refusal plan(LogEntry.WorkflowSubmission s, long startMillis, long at, int capacity) {
        if (workflows.containsKey(s.workflowId())) {
            return Refusal.of(Refusal.Kind.DUPLICATE,
                    "workflow " + s.workflowId() + " was already submitted to cluster " + cluster);
        }
        List<WorkflowJob> list = new ArrayList<>();
        for (LogEntry.WorkflowSubmission.Job j : s.jobs()) {
            list.add(new WorkflowJob(j.id(), j.tasks(), j.taskRuntimeSeconds(), j.taskCpus(), j.dependsOn()));
        }
        Workflow workflow = new Workflow(s.workflowId(), list, startMillis / 1000.0, s.deadlineSeconds());
        double start = at / 1000.0;
        active.values().removeIf(w -> w.deadlineAbsSeconds() <= start);
        active.put(workflow.id(), workflow);
        double last = active.values().stream().mapToDouble(Workflow::deadlineAbsSeconds).max().orElse(start);
        long slots = Math.max(1, (long) Math.ceil((last - start) / s.slotSeconds()));
        if (slots > MAX_SLOTS) {
            active.remove(workflow.id());
            return Refusal.of(Refusal.Kind.INVALID, "the plan would need " + slots + " slots of " + s.slotSeconds()
                    + " s, more than " + MAX_SLOTS + ": use longer slots");
        }
        long[] caps = new long[(int) slots];
        Arrays.fill(caps, capacity);
        FlowTimePlan plan;
        try {
            plan = new FlowTimePlanner(s.slotSeconds(), s.deadlineSlackSeconds(), new WaveDemandDecomposer(),
                    new LexMinMaxPlanner()).plan(List.copyOf(active.values()), caps, start);
        } catch (IllegalArgumentException e) {
            active.remove(workflow.id());
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
}
