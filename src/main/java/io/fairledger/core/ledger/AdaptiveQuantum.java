package io.fairledger.core.ledger;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The adaptive hierarchical time quantum (LTRF section 5.2.1 and Figure 3, seed 004; DOMAIN.md section 6), for
 * scheduling values only, never for the bill.
 *
 * <p>
 * Top-down, a new queue takes its parent's quantum and a new application its queue's. Bottom-up, at each refresh an
 * application's quantum becomes its mean completed-task duration (since registration), a queue's the mean over its
 * applications and child queues, up to the root. Only what changed since the last refresh is recomputed (the
 * applications with new completions and their ancestors), so a refresh costs O(changed x depth), not O(tenants).
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

        App(TenantNode tenant, String id, double quantumMs) {
            this.tenant = tenant;
            this.id = id;
            this.quantumMs = quantumMs;
        }
    }

    private final Map<TenantNode, Map<String, App>> apps = new HashMap<>();
    private final Set<App> dirtyApps = new LinkedHashSet<>();

    /** The application {@code id} of {@code tenant}, created with the tenant's quantum on first sight. */
    App app(TenantNode tenant, String id) {
        Map<String, App> byId = apps.computeIfAbsent(tenant, t -> new HashMap<>(2));
        App app = byId.get(id);
        if (app == null) {
            app = new App(tenant, id, tenant.quantumMs);
            byId.put(id, app);
            tenant.apps.add(app);
        }
        return app;
    }

    /** Records a completed task of {@code app} that ran {@code durationMs}. */
    void completed(App app, long durationMs) {
        app.completed++;
        app.completedMs += durationMs;
        dirtyApps.add(app);
    }

    /** Re-derives quanta bottom-up for what changed since the last refresh. */
    void refresh() {
        if (dirtyApps.isEmpty()) {
            return;
        }
        Set<TenantNode> dirtyNodes = new LinkedHashSet<>();
        for (App app : dirtyApps) {
            app.quantumMs = app.completedMs / app.completed;
            dirtyNodes.add(app.tenant);
        }
        dirtyApps.clear();
        List<TenantNode> order = new ArrayList<>();
        for (TenantNode n : dirtyNodes) {
            for (TenantNode a = n; a != null; a = a.parent) {
                order.add(a);
            }
        }
        order.sort(Comparator.comparingInt((TenantNode n) -> n.path.depth()).reversed()
                .thenComparingInt(n -> n.index));
        TenantNode previous = null;
        for (TenantNode n : order) {
            if (n == previous) {
                continue;
            }
            previous = n;
            double sum = 0;
            int count = 0;
            for (App a : n.apps) {
                sum += a.quantumMs;
                count++;
            }
            for (TenantNode c : n.children) {
                sum += c.quantumMs;
                count++;
            }
            if (count > 0) {
                n.quantumMs = sum / count;
            }
        }
    }
}
