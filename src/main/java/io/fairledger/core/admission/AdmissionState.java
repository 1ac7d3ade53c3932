package io.fairledger.core.admission;

import java.util.List;

/** The queue-and-cluster state behind a policy: what {@link StatefulPolicy} delegates to. */
interface AdmissionState {

    int capacity();

    int freeCpus();

    int queuedJobs();

    void submit(JobRequest job);

    void complete(JobCompletion completion);

    List<Decision> decide(long nowMillis);
}
