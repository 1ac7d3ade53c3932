package io.fairledger.core.jobsim;

import java.util.Comparator;

import io.fairledger.core.admission.JobRequest;

/** A job of a {@link JobSimulator} run between its submission and its end: its lifecycle and how it runs. */
final class SimulatedJob {

    static final Comparator<JobRequest> SUBMIT_THEN_ID = Comparator.comparingLong(JobRequest::submitMillis)
            .thenComparing(JobRequest::id);

    final JobRequest job;
    final JobLifecycle life;
    /** {@code min(tasks, capacity)}: the CPUs it could use. */
    final int demand;
    /** Fixed allocation: the instant its work is done. */
    long finishMillis = -1;
    /** Fair share: the class clock value at which its work is done. */
    double finishClock;
    /** Fair share: its cap class while it runs. */
    FairShareClasses.CapClass capClass;

    SimulatedJob(JobRequest job, int demand) {
        this.job = job;
        this.life = new JobLifecycle(job);
        this.demand = demand;
    }

    boolean running() {
        return life.status() == JobLifecycle.Status.RUNNING;
    }
}
