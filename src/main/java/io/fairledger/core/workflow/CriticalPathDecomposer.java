package io.fairledger.core.workflow;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Critical-path deadline decomposition (the state of the art FlowTime compares with, Hu et al., 2018, section IV-B,
 * after its reference [7]): with {@code EFT(j) = max(EFT(dependencies)) + minRuntime(j)} and {@code CP = max EFT}, job
 * j gets the window {@code [D * max EFT(deps) / CP, D * EFT(j) / CP]} after the workflow start: the deadline is shared
 * along the longest path in proportion to runtimes, ignoring resource demand. In the Fig. 3 DAG every middle job gets
 * 1/3 of D. O(V + E).
 */
public final class CriticalPathDecomposer implements DeadlineDecomposer {

    @Override
    public List<JobWindow> decompose(WorkflowDag dag) {
        Workflow workflow = dag.workflow();
        Map<String, Double> eft = new HashMap<>();
        Map<String, Double> est = new HashMap<>();
        double criticalPath = 0;
        for (List<WorkflowJob> wave : dag.waves()) {
            for (WorkflowJob job : wave) {
                double start = job.dependsOn().stream().mapToDouble(eft::get).max().orElse(0);
                est.put(job.id(), start);
                eft.put(job.id(), start + job.minRuntimeSeconds());
                criticalPath = Math.max(criticalPath, start + job.minRuntimeSeconds());
            }
        }
        double scale = workflow.deadlineSeconds() / criticalPath;
        List<JobWindow> windows = new ArrayList<>();
        for (List<WorkflowJob> wave : dag.waves()) {
            for (WorkflowJob job : wave) {
                windows.add(new JobWindow(workflow.id(), job.id(), workflow.startSeconds() + est.get(job.id()) * scale,
                        workflow.startSeconds() + eft.get(job.id()) * scale));
            }
        }
        return windows;
    }
}
