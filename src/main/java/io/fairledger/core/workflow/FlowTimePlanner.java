package io.fairledger.core.workflow;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * FlowTime (Hu, Li, Chen, Ke, 2018; docs/domain.md section 10): decompose each workflow's deadline
 * ({@link WaveDemandDecomposer} by default), subtract the deadline slack (default
 * {@value #DEFAULT_DEADLINE_SLACK_SECONDS} s, section VI), map windows and demands onto slots, plan with the
 * lexicographic min-max {@link LexMinMaxPlanner}, and if no plan meets every deadline fall back to
 * {@link EdfPlanner}. What each slot has left goes to ad-hoc jobs.
 *
 * <p>
 * Slot mapping: slot k covers {@code [start + k L, start + (k+1) L)}; a job may use slots from
 * {@code ceil((release - start) / L)} to {@code floor((deadline - slack - start) / L)} exclusive, at least one slot,
 * and needs {@code ceil(demand / L)} CPU-slots. Decision: a window the slack would empty keeps its first slot.
 */
public final class FlowTimePlanner {

    /** The slot length when none is given, seconds: the one default of the server's HTTP and Kafka paths. */
    public static final double DEFAULT_SLOT_SECONDS = 60;

    /** The paper's deadline slack, seconds. */
    public static final double DEFAULT_DEADLINE_SLACK_SECONDS = 60;

    /** Tolerance for floating-point slot boundaries, in slots. */
    static final double SLOT_EPSILON = 1e-9;

    private final double slotSeconds;
    private final double deadlineSlackSeconds;
    private final DeadlineDecomposer decomposer;
    private final SlotPlanner planner;

    public FlowTimePlanner(double slotSeconds, double deadlineSlackSeconds, DeadlineDecomposer decomposer,
            SlotPlanner planner) {
        if (!(slotSeconds > 0) || Double.isInfinite(slotSeconds)) {
            throw new IllegalArgumentException("slot length must be positive, got " + slotSeconds);
        }
        if (!(deadlineSlackSeconds >= 0) || Double.isInfinite(deadlineSlackSeconds)) {
            throw new IllegalArgumentException("deadline slack must be >= 0, got " + deadlineSlackSeconds);
        }
        this.slotSeconds = slotSeconds;
        this.deadlineSlackSeconds = deadlineSlackSeconds;
        this.decomposer = Objects.requireNonNull(decomposer, "decomposer");
        this.planner = Objects.requireNonNull(planner, "planner");
    }

    public FlowTimePlanner(double slotSeconds) {
        this(slotSeconds, DEFAULT_DEADLINE_SLACK_SECONDS, new WaveDemandDecomposer(), new LexMinMaxPlanner());
    }

    /** Plans {@code workflows} over {@code capacity.length} slots from {@code startSeconds}. */
    public FlowTimePlan plan(List<Workflow> workflows, long[] capacity, double startSeconds) {
        if (capacity.length == 0) {
            throw new IllegalArgumentException("need at least one slot");
        }
        List<JobWindow> windows = new ArrayList<>();
        List<SlotJob> slotJobs = new ArrayList<>();
        for (Workflow workflow : workflows) {
            WorkflowDag dag = new WorkflowDag(workflow);
            for (JobWindow window : decomposer.decompose(dag)) {
                windows.add(window);
                WorkflowJob job = dag.job(window.jobId());
                int release = (int) Math.ceil((window.releaseSeconds() - startSeconds) / slotSeconds - SLOT_EPSILON);
                int end = (int) Math.floor(
                        (window.deadlineSeconds() - deadlineSlackSeconds - startSeconds) / slotSeconds + SLOT_EPSILON);
                release = Math.max(0, Math.min(release, capacity.length - 1));
                end = Math.max(release + 1, Math.min(end, capacity.length));
                long demand = (long) Math.ceil(job.demandCpuSeconds() / slotSeconds - SLOT_EPSILON);
                slotJobs.add(new SlotJob(workflow.id() + "/" + job.id(), workflow.id(), release, end, demand,
                        workflow.deadlineAbsSeconds()));
            }
        }
        SlotPlan plan = planner.plan(slotJobs, capacity)
                .orElseGet(() -> new EdfPlanner().plan(slotJobs, capacity).orElseThrow());
        return new FlowTimePlan(windows, slotJobs, plan);
    }
}
