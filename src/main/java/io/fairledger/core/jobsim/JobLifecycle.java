package io.fairledger.core.jobsim;

import io.fairledger.core.admission.Decision;
import io.fairledger.core.admission.JobRequest;

/**
 * The life of one admission-controlled job and the rules of its outcome (docs/domain.md section 11), the one copy used
 * by the simulator ({@link JobSimulator}) and the server's admission state: {@code QUEUED -> RUNNING} when admitted
 * with some CPUs, then {@code COMPLETED} (its outcome {@link Outcome#MET} or {@link Outcome#MISSED}) or {@code KILLED};
 * {@code QUEUED -> DROPPED}. A job carried into a new policy while running may be admitted or dropped again; a job that
 * ended never changes.
 *
 * <p>
 * Rules: a completed job met its deadline when it finished at or before {@code submit + deadline} (whole
 * milliseconds, so exact); a job reported killed counts as {@link Outcome#KILLED}, one reported failed as missed. Its
 * queue time runs from submission to admission, or to its end when it was never admitted; the CPU-seconds it held at a
 * fixed allocation are {@code cpus x (end - admission)}. O(1) per step.
 */
public final class JobLifecycle {

    /** Where a job stands. */
    public enum Status {
        QUEUED, RUNNING, COMPLETED, DROPPED, KILLED
    }

    /** How the resource manager reported a completion; the simulator's jobs always succeed. */
    public enum Report {
        SUCCEEDED, FAILED, KILLED;

        /** The report named {@code name}; anything but {@code FAILED} or {@code KILLED} (null too) is a success. */
        public static Report of(String name) {
            return "KILLED".equals(name) ? KILLED : "FAILED".equals(name) ? FAILED : SUCCEEDED;
        }
    }

    private final JobRequest job;
    private Status status = Status.QUEUED;
    private int cpus;
    private long admitMillis = -1;
    private long endMillis = -1;
    private Outcome outcome;

    public JobLifecycle(JobRequest job) {
        this.job = job;
    }

    public JobRequest job() {
        return job;
    }

    public Status status() {
        return status;
    }

    /** CPUs given at the last admission (for fair-share policies the cap), 0 if never admitted. */
    public int cpus() {
        return cpus;
    }

    /** The instant of the last admission, -1 if never admitted. */
    public long admitMillis() {
        return admitMillis;
    }

    /** The instant the job ended, -1 while it has not. */
    public long endMillis() {
        return endMillis;
    }

    /** How the job ended, null while it has not. */
    public Outcome outcome() {
        return outcome;
    }

    /** True once the job completed, was dropped or killed. */
    public boolean ended() {
        return outcome != null;
    }

    /**
     * Applies a policy's decision at {@code at}: admit, drop or kill ({@link Decision.Queue} changes nothing).
     *
     * @throws IllegalStateException
     *             for a decision the job's state does not allow
     */
    public void apply(Decision decision, long at) {
        if (decision instanceof Decision.Admit admit) {
            admit(admit.cpus(), at);
        } else if (decision instanceof Decision.Drop) {
            end(Status.DROPPED, Outcome.DROPPED, at, Status.QUEUED, Status.RUNNING);
        } else if (decision instanceof Decision.Kill) {
            end(Status.KILLED, Outcome.KILLED, at, Status.RUNNING, Status.RUNNING);
        } else {
            require(Status.QUEUED, Status.RUNNING, "queue");
        }
    }

    private void admit(int cpus, long at) {
        require(Status.QUEUED, Status.RUNNING, "admit");
        status = Status.RUNNING;
        this.cpus = cpus;
        admitMillis = at;
    }

    /**
     * The running job finished at {@code finishMillis}, reported as {@code report}; returns its outcome.
     *
     * @throws IllegalStateException
     *             when the job is not running
     */
    public Outcome complete(long finishMillis, Report report) {
        require(Status.RUNNING, Status.RUNNING, "complete");
        status = Status.COMPLETED;
        endMillis = Math.max(finishMillis, admitMillis);
        outcome = report == Report.KILLED
                ? Outcome.KILLED
                : metDeadline(finishMillis) && report != Report.FAILED ? Outcome.MET : Outcome.MISSED;
        return outcome;
    }

    /** True when a completion at {@code finishMillis} meets the job's deadline. */
    public boolean metDeadline(long finishMillis) {
        return finishMillis <= job.deadlineAbsMillis();
    }

    /** Time between submission and admission, or the end when never admitted (never negative). */
    public long queuedMillis() {
        return Math.max((admitMillis >= 0 ? admitMillis : endMillis) - job.submitMillis(), 0);
    }

    /** CPU-seconds held at a fixed allocation from admission to the end; 0 if never admitted. */
    public double heldCpuSeconds() {
        return admitMillis < 0 ? 0 : Math.max(0, cpus * (endMillis - admitMillis) / 1000.0);
    }

    /** The ended job's result, as {@code measured} (the request with its measured compTime) and what it consumed. */
    public JobOutcome result(JobRequest measured, double consumedCpuSeconds) {
        if (outcome == null) {
            throw new IllegalStateException("job " + job.id() + " has not ended");
        }
        return new JobOutcome(measured, outcome, cpus, admitMillis, endMillis, queuedMillis(), consumedCpuSeconds);
    }

    private void end(Status to, Outcome how, long at, Status from, Status orFrom) {
        require(from, orFrom, to.name().toLowerCase());
        status = to;
        endMillis = at;
        outcome = how;
    }

    private void require(Status from, Status orFrom, Object step) {
        if (status != from && status != orFrom) {
            throw new IllegalStateException(
                    "job " + job.id() + " is " + status.name().toLowerCase() + ": cannot " + step);
        }
    }
}
