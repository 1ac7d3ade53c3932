package io.fairledger.core.ledger;

import io.fairledger.core.model.ResourceVector;

/** A task the ledger holds as running. Mutable only in its quantum bookkeeping. */
final class RunningTask {

    final String taskId;
    /** The leaf holding the task; its own line takes it over when the leaf gains a child ({@link OwnLines}). */
    TenantNode tenant;
    final AdaptiveQuantum.App app;
    final ResourceVector resources;
    final long start;
    /** Share of capacity at start, used only for the quantum top-up. */
    final double size;
    final long quantumEnd;
    /** True while the task counts in its path's quantum top-up: from start until it finishes or its quantum ends. */
    boolean young;

    RunningTask(String taskId, TenantNode tenant, AdaptiveQuantum.App app, ResourceVector resources, long start,
            double size, long quantumEnd) {
        this.taskId = taskId;
        this.tenant = tenant;
        this.app = app;
        this.resources = resources;
        this.start = start;
        this.size = size;
        this.quantumEnd = quantumEnd;
    }
}
