package io.fairledger.core.ledger;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The adaptive hierarchical time quantum (LTRF section 5.2.1 and Figure 3, Tang et al., 2014; docs/domain.md
 * section 6), for scheduling values only, never for the bill.
 *
 * <p>
 * Top-down, a new queue takes its parent's quantum and a new application its queue's. Bottom-up, at each refresh an
 * application's quantum becomes its mean completed-task duration (since registration), a queue's the mean over its
 * applications and child queues, up to the root. Every node keeps the sum of its members' quanta, updated by
 * differences, and only what changed since the last refresh is recomputed, level by level from the deepest: a refresh
 * costs O(changed x depth), not O(tenants), and no sort.
 *
 * <p>
 * Decision: a task's quantum is its application's quantum when it starts; a later refresh does not change it.
 */
final class AdaptiveQuantum {

    /** An application (YARN application, Mesos framework) of one tenant. */
    static final class App {
        final TenantNode tenant;
        final String id;
        double quantumMs;
        long completed;
        double completedMs;
        boolean dirty;

        App(TenantNode tenant, String id, double quantumMs) {
            this.tenant = tenant;
            this.id = id;
            this.quantumMs = quantumMs;
        }
    }

    final Map<TenantNode, Map<String, App>> apps = new HashMap<>();
    final List<App> dirtyApps = new ArrayList<>();
    final List<List<TenantNode>> dirtyByDepth = new ArrayList<>();

    /** Registers a new node under its parent, with the parent's quantum. */
    void nodeCreated(TenantNode node) {
        if (node.parent != null) {
            node.quantumMs = node.parent.quantumMs;
            node.parent.quantumSum += node.quantumMs;
            node.parent.quantumMembers++;
        }
    }

    /** The application {@code id} of {@code tenant}, created with the tenant's quantum on first sight. */
    App app(TenantNode tenant, String id) {
        Map<String, App> byId = tenant.lastApps;
        if (byId == null) {
            byId = apps.computeIfAbsent(tenant, t -> new HashMap<>(2));
            tenant.lastApps = byId;
        }
        App app = byId.get(id);
        if (app == null) {
            app = new App(tenant, id, tenant.quantumMs);
            byId.put(id, app);
            tenant.quantumSum += app.quantumMs;
            tenant.quantumMembers++;
        }
        return app;
    }

    /** Records a completed task of {@code app} that ran {@code durationMs}. */
    void completed(App app, long durationMs) {
        app.completed++;
        app.completedMs += durationMs;
        if (!app.dirty) {
            app.dirty = true;
            dirtyApps.add(app);
        }
    }

    /** Re-derives quanta bottom-up for what changed since the last refresh. */
    void refresh() {
        if (dirtyApps.isEmpty()) {
            return;
        }
        for (App app : dirtyApps) {
            app.dirty = false;
            double q = app.completedMs / app.completed;
            app.tenant.quantumSum += q - app.quantumMs;
            app.quantumMs = q;
            markDirty(app.tenant);
        }
        dirtyApps.clear();
        for (int depth = dirtyByDepth.size() - 1; depth >= 0; depth--) {
            List<TenantNode> level = dirtyByDepth.get(depth);
            for (TenantNode n : level) {
                n.quantumDirty = false;
                double q = n.quantumMembers > 0 ? n.quantumSum / n.quantumMembers : n.quantumMs;
                if (n.parent != null && q != n.quantumMs) {
                    n.parent.quantumSum += q - n.quantumMs;
                    markDirty(n.parent);
                }
                n.quantumMs = q;
            }
            level.clear();
        }
    }

    private void markDirty(TenantNode n) {
        if (n.quantumDirty) {
            return;
        }
        n.quantumDirty = true;
        int depth = n.path.depth();
        while (dirtyByDepth.size() <= depth) {
            dirtyByDepth.add(new ArrayList<>());
        }
        dirtyByDepth.get(depth).add(n);
    }
}
