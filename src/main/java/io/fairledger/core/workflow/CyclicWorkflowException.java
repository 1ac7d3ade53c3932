package io.fairledger.core.workflow;

import java.util.List;

/** A workflow's dependencies form a cycle; {@link #cycle()} names its jobs in dependency order. */
public final class CyclicWorkflowException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final List<String> cycle;

    public CyclicWorkflowException(String workflowId, List<String> cycle) {
        super("workflow " + workflowId + " has a dependency cycle: " + String.join(" -> ", cycle) + " -> "
                + cycle.get(0));
        this.cycle = List.copyOf(cycle);
    }

    public List<String> cycle() {
        return cycle;
    }
}
