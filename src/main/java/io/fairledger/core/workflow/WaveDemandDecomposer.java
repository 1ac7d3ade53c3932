package io.fairledger.core.workflow;

import java.util.ArrayList;
import java.util.List;

/**
 * FlowTime's resource-demand-based deadline decomposition (Hu et al., 2018, section IV-B; docs/domain.md section 10).
 * The waves of {@link WorkflowDag#waves()} run one after another; wave k first gets its longest job's minimum runtime
 * {@code m_k}; the time left, {@code D - sum m_k}, is split in proportion to each wave's demand
 * {@code sum tasks x task runtime x task CPUs}. Every job of a wave gets the wave's window. When the time left is
 * negative the workflow cannot meet its deadline even on an empty cluster, and the {@link CriticalPathDecomposer} is
 * used instead (the paper's footnote 1).
 *
 * <p>
 * Fig. 3 of the paper: n+1 identical jobs, waves {1}, {2..n}, {n+1} with demands 1 : n-1 : 1; the middle wave gets
 * {@code m + (D - 3m)(n-1)/(n+1)}, i.e. {@code (n-1)/(n+1)} of the deadline when runtimes are small next to it (the
 * critical path gives it 1/3). O(V + E).
 */
public final class WaveDemandDecomposer implements DeadlineDecomposer {

    private final CriticalPathDecomposer fallback = new CriticalPathDecomposer();

    @Override
    public List<JobWindow> decompose(WorkflowDag dag) {
        Workflow workflow = dag.workflow();
        List<List<WorkflowJob>> waves = dag.waves();
        double[] minimum = new double[waves.size()];
        double[] demand = new double[waves.size()];
        double minimumSum = 0;
        double demandSum = 0;
        for (int k = 0; k < waves.size(); k++) {
            for (WorkflowJob job : waves.get(k)) {
                minimum[k] = Math.max(minimum[k], job.minRuntimeSeconds());
                demand[k] += job.demandCpuSeconds();
            }
            minimumSum += minimum[k];
            demandSum += demand[k];
        }
        double left = workflow.deadlineSeconds() - minimumSum;
        if (left < 0) {
            return fallback.decompose(dag);
        }
        List<JobWindow> windows = new ArrayList<>();
        double release = workflow.startSeconds();
        for (int k = 0; k < waves.size(); k++) {
            double end = k == waves.size() - 1
                    ? workflow.deadlineAbsSeconds()
                    : release + minimum[k] + left * demand[k] / demandSum;
            for (WorkflowJob job : waves.get(k)) {
                windows.add(new JobWindow(workflow.id(), job.id(), release, end));
            }
            release = end;
        }
        return windows;
    }
}
