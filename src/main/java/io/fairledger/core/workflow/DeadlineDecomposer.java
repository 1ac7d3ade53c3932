package io.fairledger.core.workflow;

import java.util.List;

/**
 * Turns a workflow's deadline into a window per job that respects the dependencies (FlowTime (Hu et al., 2018)
 * section IV).
 */
public interface DeadlineDecomposer {

    /** One window per job, in the DAG's wave order. */
    List<JobWindow> decompose(WorkflowDag dag);
}
