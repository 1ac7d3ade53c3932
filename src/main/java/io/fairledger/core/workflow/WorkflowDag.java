package io.fairledger.core.workflow;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A validated workflow DAG: ids unique, dependencies known, no cycle ({@link CyclicWorkflowException} names one). Its
 * {@link #waves()} are Kahn's algorithm grouped into waves of mutually independent jobs (FlowTime (Hu et al., 2018)
 * section IV-A): wave 0 holds the jobs without dependencies, wave k those whose dependencies all lie in earlier waves,
 * at least one in wave k-1. O(V + E).
 */
public final class WorkflowDag {

    private final Workflow workflow;
    private final Map<String, WorkflowJob> byId = new LinkedHashMap<>();
    private final List<List<WorkflowJob>> waves;

    public WorkflowDag(Workflow workflow) {
        this.workflow = workflow;
        for (WorkflowJob job : workflow.jobs()) {
            if (byId.put(job.id(), job) != null) {
                throw new IllegalArgumentException("workflow " + workflow.id() + ": duplicate job id " + job.id());
            }
        }
        for (WorkflowJob job : workflow.jobs()) {
            for (String dependency : job.dependsOn()) {
                if (!byId.containsKey(dependency)) {
                    throw new IllegalArgumentException("workflow " + workflow.id() + ": job " + job.id()
                            + " depends on unknown job " + dependency);
                }
            }
        }
        this.waves = kahnWaves();
    }

    public Workflow workflow() {
        return workflow;
    }

    /** Waves in order, jobs inside a wave in input order. */
    public List<List<WorkflowJob>> waves() {
        return waves;
    }

    public WorkflowJob job(String id) {
        return byId.get(id);
    }

    private List<List<WorkflowJob>> kahnWaves() {
        Map<String, Integer> indegree = new HashMap<>();
        Map<String, List<String>> dependents = new HashMap<>();
        for (WorkflowJob job : workflow.jobs()) {
            indegree.put(job.id(), job.dependsOn().size());
            for (String dependency : job.dependsOn()) {
                dependents.computeIfAbsent(dependency, k -> new ArrayList<>()).add(job.id());
            }
        }
        List<List<WorkflowJob>> result = new ArrayList<>();
        List<WorkflowJob> current = workflow.jobs().stream().filter(j -> j.dependsOn().isEmpty()).toList();
        int placed = 0;
        while (!current.isEmpty()) {
            result.add(current);
            placed += current.size();
            List<String> released = new ArrayList<>();
            for (WorkflowJob job : current) {
                for (String dependent : dependents.getOrDefault(job.id(), List.of())) {
                    if (indegree.merge(dependent, -1, Integer::sum) == 0) {
                        released.add(dependent);
                    }
                }
            }
            List<WorkflowJob> next = new ArrayList<>();
            for (WorkflowJob job : workflow.jobs()) {
                if (released.contains(job.id())) {
                    next.add(job);
                }
            }
            current = next;
        }
        if (placed < workflow.jobs().size()) {
            throw new CyclicWorkflowException(workflow.id(), findCycle(indegree));
        }
        return List.copyOf(result);
    }

    /** A cycle among the jobs Kahn's algorithm could not place, found by walking dependencies until one repeats. */
    private List<String> findCycle(Map<String, Integer> indegree) {
        String start = workflow.jobs().stream().map(WorkflowJob::id).filter(id -> indegree.get(id) > 0).findFirst()
                .orElseThrow();
        List<String> path = new ArrayList<>();
        Map<String, Integer> position = new HashMap<>();
        String current = start;
        while (!position.containsKey(current)) {
            position.put(current, path.size());
            path.add(current);
            current = byId.get(current).dependsOn().stream().filter(d -> indegree.get(d) > 0).findFirst()
                    .orElseThrow();
        }
        List<String> cycle = new ArrayList<>(path.subList(position.get(current), path.size()));
        java.util.Collections.reverse(cycle);
        int first = 0;
        for (int i = 1; i < cycle.size(); i++) {
            if (inputOrder(cycle.get(i)) < inputOrder(cycle.get(first))) {
                first = i;
            }
        }
        java.util.Collections.rotate(cycle, -first);
        return cycle;
    }

    private int inputOrder(String id) {
        return workflow.jobs().indexOf(byId.get(id));
    }
}
