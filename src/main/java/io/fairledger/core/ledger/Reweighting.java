package io.fairledger.core.ledger;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.fairledger.core.model.ClusterConfig;
import io.fairledger.core.model.MemoryMode;
import io.fairledger.core.model.TenantConfig;
import io.fairledger.core.model.TenantPath;

/**
 * A ledger standing exactly at a round start, continued under a variant of its configuration that differs only in
 * tenant weights and discount rates (the cluster's and each tenant's): the what-if of a weight change from a round
 * start ({@link ClusterLedger#reweighted}).
 *
 * <p>
 * What crosses a round boundary and how it depends on weights and discount rates (S-LTMM, LTRF eqs. 12-14, Tang et
 * al., 2014), once the ledger has entered the round at its start {@code R}:
 * <ul>
 * <li>independent of them: the tree and its creation order, holdings, pending demand by application, running tasks,
 * capacity, event outcomes, time quanta (task sizes are shares of capacity, adaptive quanta are mean task durations),
 * the memory integrals (0 at {@code R}), {@code phi} (0), arrivals (a node active at {@code R} arrived at {@code R}),
 * the lending pools ({@code K = 0});</li>
 * <li>derived from them and rebuilt here: each node's share (eq. 1 top-down from the weights) and discount rate, its
 * rates ({@code g' = min(g, S) + eta max(g - S, 0)} and the entitled, borrowed and unused shares), the pools'
 * {@code B, U};</li>
 * <li>not rebuilt: the integrals of the open period up to {@code R}, which depend on the old weights. The statement
 * of a period that started before {@code R} is therefore not the variant's; those of periods starting at or after
 * {@code R} are.</li>
 * </ul>
 * So the continued ledger is the ledger's {@link LedgerState} with the variant's weights and discount rates, restored
 * under the variant, its shares and rates recomputed. A weight set by a {@link LedgerEvent.WeightChanged} event
 * replaces the configured one in a replay under either configuration, so it cannot be rebuilt from the variant: a
 * ledger holding a weight other than the one its configuration gives (configured, or
 * {@link TenantConfig#DEFAULT_WEIGHT}) is refused. An event that set a weight to exactly its configured value cannot
 * be told apart: the caller must know that its events hold no weight change (a server's stored facts never do).
 * O(tenants + tasks).
 */
final class Reweighting {

    private Reweighting() {
    }

    /**
     * {@code ledger} continued under {@code variant}; {@code ledger} itself is left as it was.
     *
     * @throws IllegalArgumentException
     *             when not under ROUNDS, the clock is not a round start, the variant differs in more than weights
     *             and discount rates, or a weight was set by an event
     */
    static ClusterLedger continued(ClusterLedger ledger, ClusterConfig variant) {
        ClusterConfig config = ledger.config();
        if (!(config.memory() instanceof MemoryMode.Rounds rounds)) {
            throw new IllegalArgumentException("only a ledger under ROUNDS can be continued with other weights from a "
                    + "round start, not under " + config.memory());
        }
        long clock = ledger.clock();
        if (rounds.startOf(rounds.roundOf(clock)) != clock) {
            throw new IllegalArgumentException("the ledger clock " + clock + " is not a round start");
        }
        if (!sameButWeights(config, variant)) {
            throw new IllegalArgumentException("the variant differs from the ledger's configuration in more than "
                    + "tenant weights and discount rates");
        }
        LedgerState state = ledger.snapshot();
        Map<TenantPath, TenantConfig> configured = byPath(config);
        for (LedgerState.Node n : state.nodes()) {
            TenantConfig c = configured.get(n.path());
            double expected = n.parent() < 0 ? 1.0 : c == null ? TenantConfig.DEFAULT_WEIGHT : c.weight();
            if (Double.compare(n.weight(), expected) != 0) {
                throw new IllegalArgumentException("the weight of " + n.path() + " (" + n.weight()
                        + ") was set by an event, not by the configuration (" + expected + ")");
            }
        }
        ClusterLedger next = ClusterLedger.restore(config, state);
        reconfigure(next, clock, variant);
        return next;
    }

    /**
     * Puts {@code variant} in force in {@code ledger} from {@code at} on ({@link ClusterLedger#reconfigure}): exactly
     * what weight-change events at {@code at} do (the round entered, every node advanced to {@code at}, the shares and
     * rates recomputed), for every tenant {@code variant} lists, with its discount-rate override and price plan, and
     * the cluster's discount rate; a listed tenant the ledger has not seen yet is created at {@code at}, parents first.
     * A tenant the variant does not list keeps what it had. What was integrated before {@code at} stays as it was: the
     * change is prospective. When the ledger holds its configuration (each tenant it lists holds its weight,
     * discount-rate override and plan: {@code ClusterLedger.configHeld}, true after a reconfigure until a weight-change
     * event), only the tenants the variant changes are visited ({@link #changedTenants}); the shares and rates of
     * every node are recomputed either way (a weight changes every sibling's share).
     *
     * @throws IllegalArgumentException
     *             for an instant before the clock, or a variant that differs in more than tenants and discount rate
     */
    static void reconfigure(ClusterLedger ledger, long at, ClusterConfig variant) {
        if (!sameButTenants(ledger.config, variant)) {
            throw new IllegalArgumentException("a ledger can take other tenants and discount rates from an instant "
                    + "on, nothing else: the variant differs in more (capacity, memory, PAR, measure or quanta)");
        }
        if (at < ledger.clock) {
            throw new IllegalArgumentException("instant " + at + " is before the ledger clock " + ledger.clock);
        }
        ledger.enterRound(at);
        ledger.quanta.refresh(at);
        ledger.quanta.expire(at);
        ledger.advanceAll(at);
        List<TenantConfig> parentsFirst = ledger.configHeld
                ? changedTenants(ledger.config, variant)
                : new ArrayList<>(variant.tenants());
        ledger.config = variant;
        parentsFirst.sort(Comparator.comparingInt(t -> t.path().depth()));
        for (TenantConfig t : parentsFirst) {
            double discount = t.discountOverride().orElse(Double.NaN);
            TenantNode n = ledger.tree.get(t.path());
            if (n == null) {
                ledger.newNode(t.path(), ledger.ensure(t.path().parent(), at), t.weight(), discount, t.pricePlan(),
                        at);
            } else {
                n.weight = t.weight();
                n.discountOverride = discount;
                n.pricePlan = t.pricePlan();
            }
        }
        ledger.recomputeAll();
        ledger.configHeld = true;
        ledger.clock = at;
    }

    /**
     * The tenants of {@code variant} that {@code config} does not list as the same configuration at the same place: a
     * settings change shares the configuration of every tenant it leaves alone with the one before, so a change of one
     * weight among 10,000 tenants gives one (and a tenant added gives itself and those after it). The others hold
     * their configured values already when the ledger holds its configuration. Those given keep their order in
     * {@code variant}, so new nodes are created in the order a visit of every tenant creates them.
     */
    private static List<TenantConfig> changedTenants(ClusterConfig config, ClusterConfig variant) {
        List<TenantConfig> before = config.tenants();
        List<TenantConfig> after = variant.tenants();
        List<TenantConfig> out = new ArrayList<>();
        for (int i = 0; i < after.size(); i++) {
            if (i >= before.size() || before.get(i) != after.get(i)) {
                out.add(after.get(i));
            }
        }
        return out;
    }

    /** Whether {@code a} and {@code b} are the same configuration but for their tenants and cluster discount rate. */
    static boolean sameButTenants(ClusterConfig a, ClusterConfig b) {
        return withoutTenants(a).equals(withoutTenants(b));
    }

    /** {@code c} without tenants and with no discount: compared at no cost per tenant. */
    private static ClusterConfig withoutTenants(ClusterConfig c) {
        return new ClusterConfig(c.clusterId(), c.registeredAt(), c.capacity(), List.of(), 1.0, c.memory(), c.par(),
                c.measure(), c.rootQuantumMs(), c.quantumRefreshMs());
    }

    /** Whether {@code a} and {@code b} are the same configuration but for tenant weights and discount rates. */
    static boolean sameButWeights(ClusterConfig a, ClusterConfig b) {
        if (a.tenants().size() != b.tenants().size()) {
            return false;
        }
        List<TenantConfig> bAsA = new ArrayList<>(b.tenants().size());
        for (int i = 0; i < a.tenants().size(); i++) {
            TenantConfig ta = a.tenants().get(i);
            TenantConfig tb = b.tenants().get(i);
            bAsA.add(new TenantConfig(tb.path(), ta.weight(), ta.discountOverride(), tb.pricePlan()));
        }
        ClusterConfig c = new ClusterConfig(b.clusterId(), b.registeredAt(), b.capacity(), bAsA, a.discountRate(),
                b.memory(), b.par(), b.measure(), b.rootQuantumMs(), b.quantumRefreshMs());
        return c.equals(a);
    }

    private static Map<TenantPath, TenantConfig> byPath(ClusterConfig config) {
        Map<TenantPath, TenantConfig> out = new HashMap<>();
        config.tenants().forEach(t -> out.put(t.path(), t));
        return out;
    }
}
