package io.fairledger.core.ledger;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.fairledger.core.model.ClusterConfig;
import io.fairledger.core.model.MemoryMode;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantConfig;
import io.fairledger.core.model.TenantPath;

/** Random but reproducible event streams over a small two-level tree, for property tests. */
public final class RandomStreams {

    /** Leaves events are generated for. */
    public static final List<String> LEAVES = List.of("a", "b", "c/x", "c/y", "z");

    private RandomStreams() {
    }

    /** Cluster "c" at 0, 20 vcores, tenants a, b, c (with c/x, c/y) and z of weight 0. */
    public static ClusterConfig config(double eta, MemoryMode memory) {
        return ClusterConfig.defaults("c", 0, ResourceVector.of(20, 20480, 1),
                List.of(TenantConfig.of("a", 1), TenantConfig.of("b", 2), TenantConfig.of("c", 1),
                        TenantConfig.of("c/x", 1), TenantConfig.of("c/y", 3), TenantConfig.of("z", 0)))
                .withMemory(memory).withDiscountRate(eta).withRootQuantum(500);
    }

    /** One stream; {@code withStructural} adds capacity and weight changes. */
    public static List<LedgerEvent> events(long seed, int count, boolean withStructural) {
        Random rnd = new Random(seed);
        List<LedgerEvent> out = new ArrayList<>();
        Map<String, Long> running = new LinkedHashMap<>();
        long t = 0;
        int next = 0;
        for (int i = 0; i < count; i++) {
            t += rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(1000);
            int kind = rnd.nextInt(withStructural ? 10 : 8);
            if (kind < 4 || running.isEmpty()) {
                String id = "t" + next++;
                String leaf = LEAVES.get(rnd.nextInt(LEAVES.size()));
                var v = ResourceVector.ofMillicores(250L * (1 + rnd.nextInt(16)), 256L * rnd.nextInt(16),
                        rnd.nextInt(8) == 0 ? 1 : 0);
                out.add(new LedgerEvent.TaskStarted("c", id, TenantPath.parse(leaf), "app" + rnd.nextInt(2), v, t));
                running.put(id, t);
            } else if (kind < 7) {
                List<String> ids = new ArrayList<>(running.keySet());
                String id = ids.get(rnd.nextInt(ids.size()));
                running.remove(id);
                out.add(new LedgerEvent.TaskFinished("c", id, t));
            } else if (kind < 8) {
                String leaf = LEAVES.get(rnd.nextInt(LEAVES.size()));
                out.add(new LedgerEvent.DemandChanged("c", TenantPath.parse(leaf),
                        ResourceVector.of(rnd.nextInt(10), 0, 0), t));
            } else if (kind < 9) {
                out.add(new LedgerEvent.CapacityChanged("c", ResourceVector.of(10 + rnd.nextInt(30), 20480, 1), t));
            } else {
                String leaf = LEAVES.get(rnd.nextInt(LEAVES.size()));
                out.add(new LedgerEvent.WeightChanged("c", TenantPath.parse(leaf), rnd.nextInt(4), t));
            }
        }
        return out;
    }
}
