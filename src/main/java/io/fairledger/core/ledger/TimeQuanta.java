package io.fairledger.core.ledger;

import io.fairledger.core.ledger.LedgerEvent.TaskStarted;
import io.fairledger.core.model.ClusterConfig;
import io.fairledger.core.model.ResourceVector;

/**
 * The time quanta of a {@link ClusterLedger} (docs/domain.md section 6, scheduling only): a task starting gets its
 * application's adaptive quantum ({@link AdaptiveQuantum}, refreshed every {@code quantumRefreshMs}); while the quantum
 * runs, the task is young and its tenant and ancestors carry a top-up {@code (Q - elapsed) x size}. Young tasks sit in
 * a calendar by quantum end ({@link QuantumExpiry}); finished ones stay until their end, flagged not young. O(depth)
 * plus O(log b) per task start, finish or expiry, for the b tasks whose quantum ends in the same second.
 */
final class TimeQuanta {

    private final ClusterConfig config;
    final AdaptiveQuantum quantum = new AdaptiveQuantum();
    final QuantumExpiry young;
    long nextRefresh;

    TimeQuanta(ClusterConfig config) {
        this.config = config;
        this.young = new QuantumExpiry(config.registeredAt());
        this.nextRefresh = config.registeredAt() + config.quantumRefreshMs();
    }

    /** A new node inherits its parent's quantum. */
    void nodeCreated(TenantNode n) {
        quantum.nodeCreated(n);
    }

    /** Refreshes the adaptive quanta when a refresh instant passed by {@code t}. */
    void refresh(long t) {
        if (config.rootQuantumMs() > 0 && t >= nextRefresh) {
            quantum.refresh();
            long interval = config.quantumRefreshMs();
            nextRefresh = config.registeredAt() + (Math.floorDiv(t - config.registeredAt(), interval) + 1) * interval;
        }
    }

    /** Ends the quantum of every young task whose quantum ended by {@code t}. */
    void expire(long t) {
        young.expire(t, task -> {
            if (task.young) {
                end(task);
            }
        });
    }

    /** The task {@code s} of {@code leaf} starting at {@code t}, young when it gets a quantum. */
    RunningTask start(TaskStarted s, TenantNode leaf, long t, ResourceVector capacity) {
        ResourceVector v = s.resources();
        AdaptiveQuantum.App app = null;
        long quantumEnd = t;
        double size = 0;
        if (config.rootQuantumMs() > 0) {
            app = quantum.app(leaf, s.applicationId());
            quantumEnd = t + Math.round(app.quantumMs);
            size = config.measure().share(v, capacity);
        }
        RunningTask task = new RunningTask(s.taskId(), leaf, app, v, t, size, quantumEnd);
        if (quantumEnd > t && size > 0) {
            task.young = true;
            young.add(task);
            for (TenantNode n = leaf; n != null; n = n.parent) {
                n.addYoung(size, quantumEnd - config.registeredAt());
            }
        }
        return task;
    }

    /** The task finished at {@code t}: its quantum ends, and its run teaches its application's quantum. */
    void finished(RunningTask task, long t) {
        if (task.young) {
            end(task);
        }
        if (task.app != null) {
            quantum.completed(task.app, t - task.start);
        }
    }

    private void end(RunningTask task) {
        task.young = false;
        for (TenantNode n = task.tenant; n != null; n = n.parent) {
            n.removeYoung(task.size, task.quantumEnd - config.registeredAt());
        }
    }
}
