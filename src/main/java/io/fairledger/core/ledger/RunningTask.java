package io.fairledger.core.ledger;

import io.fairledger.core.model.ResourceVector;

/** A task the ledger holds as running. Mutable only in its quantum bookkeeping. */
final class RunningTask {

    final String taskId;
    final TenantNode tenant;
    final AdaptiveQuantum.App app;
    final ResourceVector resources;
    final long start;
    /** Share of capacity at start, used only for the quantum top-up. */
    final double size;
    final long quantumEnd;
    /** One entry per node on the path whose top-up counts this task, or null when it was never young. */
    YoungEntry[] youngEntries;

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

    /** The task as counted in one node's quantum top-up; {@code counted} turns false once, when it is subtracted. */
    static final class YoungEntry {
        final RunningTask task;
        final TenantNode node;
        boolean counted = true;

        YoungEntry(RunningTask task, TenantNode node) {
            this.task = task;
            this.node = node;
        }

        void uncount() {
            if (counted) {
                counted = false;
                node.youngSize -= task.size;
                node.youngSizeTimesEnd -= task.size * task.quantumEnd;
            }
        }
    }
}
