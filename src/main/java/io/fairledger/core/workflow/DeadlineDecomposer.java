package io.fairledger.core.workflow;

import java.util.List;

/** Turns a workflow's deadline into a window per job that respects the dependencies (seed 002 section IV). */
public interface DeadlineDecomposer {

    /** One window per job, in the DAG's wave order. */
    List<JobWindow> decompose(WorkflowDag dag);
}
