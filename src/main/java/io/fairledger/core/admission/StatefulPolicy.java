package io.fairledger.core.admission;

import java.util.List;

/**
 * An {@link AdmissionPolicy} whose submissions, completions and passes are those of its {@link AdmissionState}
 * ({@link AdmissionEngine} for the fixed-allocation policies, {@link FairShareAdmission} for the fair-share ones); a
 * policy only says how requests are estimated.
 */
public abstract class StatefulPolicy implements AdmissionPolicy {

    abstract AdmissionState state();

    @Override
    public final int capacity() {
        return state().capacity();
    }

    @Override
    public final void submit(JobRequest job) {
        state().submit(job);
    }

    @Override
    public final void complete(JobCompletion completion) {
        state().complete(completion);
    }

    @Override
    public final List<Decision> decide(long nowMillis) {
        return state().decide(nowMillis);
    }

    @Override
    public final int queuedJobs() {
        return state().queuedJobs();
    }

    @Override
    public final int freeCpus() {
        return state().freeCpus();
    }
}
