package io.fairledger.core.ledger;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.fairledger.core.ledger.LedgerEvent.CapacityChanged;
import io.fairledger.core.ledger.LedgerEvent.DemandChanged;
import io.fairledger.core.ledger.LedgerEvent.TaskFinished;
import io.fairledger.core.ledger.LedgerEvent.TaskStarted;
import io.fairledger.core.ledger.LedgerEvent.WeightChanged;
import io.fairledger.core.model.ClusterConfig;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantConfig;
import io.fairledger.core.model.TenantPath;

/**
 * The exact event-time LTRF ledger of one cluster (docs/domain.md sections 2-6; LTRF eqs. 3, 7, 9, 10, 12, 14-16,
 * Tang et al., 2014). Between two events every held share, demand and capacity is constant, so each integral grows by a
 * product; no ticks, no sampling.
 *
 * <h2>Cost per event</h2> A task or demand event changes the holdings of one tenant and its ancestors only. Each node
 * keeps the instant it was last advanced and is integrated lazily, when it is next touched or read. The lending terms
 * depend on the sums {@code B, U} of the sibling group; those are kept incrementally with global accumulators in
 * {@link SiblingGroup}, so a task start or finish costs O(depth) plus O(log b) for the quantum calendar (b tasks whose
 * quantum ends in the same second), independent of the number of tenants. Capacity changes, weight changes and the
 * first sight of a tenant change every share, so they advance and recompute every node: O(tenants), rare by nature.
 * The early-bird top-up looks at the arriving tenant's siblings: O(siblings), once per tenant per round.
 *
 * <h2>Rules</h2>
 * <ul>
 * <li>Events are applied in event-time order. An event older than the ledger clock is rejected untouched
 * ({@link Outcome#REJECTED_LATE}); {@link io.fairledger.core.replay.Replay} is the path for late events.</li>
 * <li>A second start of a running task id is ignored (the first stands); a finish of a task that is not running is
 * ignored. Both are counted in {@link #ignoredEvents()}. Every check happens before the first mutation, so an event is
 * applied entirely or not at all.</li>
 * <li>A tenant first seen in an event is created with the default weight 1 (docs/domain.md section 1), with any missing
 * ancestors. The tasks and demand of a tenant with children go to its own line ({@link OwnLines}).</li>
 * <li>A demand change replaces one application's pending demand; a tenant's own pending demand is the sum over its
 * applications (docs/domain.md section 3), so simultaneous changes of several applications commute.</li>
 * <li>{@code S_i} is {@code w_i / sum of all configured siblings' weights} times the parent's share (resource as you
 * pay, docs/domain.md section 2); "active siblings only" is not implemented.</li>
 * <li>Early-bird top-up (eq. 10/16): when a node becomes active for the first time in its memory period (the round for
 * ROUNDS, since registration otherwise) it gets {@code phi} from its siblings that arrived strictly earlier and are
 * active, per {@link io.fairledger.core.model.ParPolicy}. A node active when a round starts arrived at the boundary
 * (eq. 14).</li>
 * </ul>
 * Parts: the tree and its shares are {@link TenantTree}; which events are refused, {@link EventChecks}; what a task
 * or demand changes along its path, {@link PathHoldings}; the integrals, {@link NodeIntegrals}, the memory ones per
 * mode by {@link MemoryIntegration}; a round start, {@link RoundStart}; the state as values, {@link LedgerState}
 * ({@link LedgerSnapshot}). Grants for the tree are computed from this ledger's accounts by
 * {@code io.fairledger.core.grant.TreeGrants}. Not thread-safe: one ledger per cluster, fed by one consumer.
 */
public final class ClusterLedger {

    ClusterConfig config; // the one in force: built with, or the last reconfigure's
    boolean configHeld; // each tenant of config holds its values: after a reconfigure, until a weight event
    final TenantTree tree = new TenantTree();
    private final NodeIntegrals integrals;
    private final PathHoldings holdings;
    final Map<String, RunningTask> tasks = new HashMap<>();
    final TimeQuanta quanta;
    final long[] outcomes = new long[Outcome.values().length];
    private final TenantNode root;
    private ResourceVector capacity;
    long clock;

    /** A ledger at the instant the cluster was registered, with the configured tenants and no task running. */
    public ClusterLedger(ClusterConfig config) {
        this.config = config;
        this.capacity = config.capacity();
        this.clock = config.registeredAt();
        this.integrals = new NodeIntegrals(MemoryIntegration.of(config.memory()), config.registeredAt());
        this.holdings = new PathHoldings(config.measure(), new EarlyBirdTopUp(integrals, config.par()));
        this.quanta = new TimeQuanta(config);
        this.root = newNode(TenantPath.ROOT, null, 1.0, Double.NaN, "", clock);
        root.quantumMs = config.rootQuantumMs();
        List<TenantConfig> parentsFirst = new ArrayList<>(config.tenants());
        parentsFirst.sort(Comparator.comparingInt(t -> t.path().depth()));
        for (TenantConfig t : parentsFirst) {
            TenantNode parent = ensure(t.path().parent(), clock);
            TenantNode existing = tree.get(t.path());
            if (existing != null) {
                existing.weight = t.weight();
            } else {
                newNode(t.path(), parent, t.weight(), t.discountOverride().orElse(Double.NaN), t.pricePlan(), clock);
            }
        }
        recomputeAll();
    }

    /**
     * A ledger restored from a {@link LedgerState} ({@link LedgerSnapshot}): {@code nodes} root first, parents before
     * children, each already holding its state; {@code quanta} and {@code tasks} as they stood.
     */
    ClusterLedger(ClusterConfig config, long clock, ResourceVector capacity, long[] outcomes, List<TenantNode> nodes,
            TimeQuanta quanta, Map<String, RunningTask> tasks) {
        this.config = config;
        this.capacity = capacity;
        this.clock = clock;
        this.integrals = new NodeIntegrals(MemoryIntegration.of(config.memory()), config.registeredAt());
        this.holdings = new PathHoldings(config.measure(), new EarlyBirdTopUp(integrals, config.par()));
        this.quanta = quanta;
        for (TenantNode n : nodes) {
            tree.restore(n);
        }
        this.root = nodes.get(0);
        this.tasks.putAll(tasks);
        System.arraycopy(outcomes, 0, this.outcomes, 0, this.outcomes.length);
    }

    /**
     * The ledger holding {@code state}, which {@link #snapshot} gave under the configuration it was built with: it goes
     * on exactly as the ledger the state was taken from.
     *
     * @throws IllegalArgumentException
     *             when the state refers to a node, task or application it does not hold
     */
    public static ClusterLedger restore(ClusterConfig config, LedgerState state) {
        return LedgerSnapshot.restore(config, state);
    }

    /** Everything this ledger holds beyond its configuration, as values; moves nothing. */
    public LedgerState snapshot() {
        return LedgerSnapshot.of(this);
    }

    /** The configuration this ledger was built with. */
    public ClusterConfig config() {
        return config;
    }

    /** The instant of the last applied event (or period close); no event before it can be applied. */
    public long clock() {
        return clock;
    }

    /** Current capacity. */
    public ResourceVector capacity() {
        return capacity;
    }

    /** Number of tasks running now. */
    public int runningTasks() {
        return tasks.size();
    }

    /** Every node of the tree, root first, parents before children. */
    public List<TenantPath> tenants() {
        return tree.paths();
    }

    /** The children of {@code parent}, in creation order; empty for a leaf or an unknown node. */
    public List<TenantPath> children(TenantPath parent) {
        return tree.children(parent);
    }

    /** How many events ended with each outcome so far. */
    public Map<Outcome, Long> ignoredEvents() {
        EnumMap<Outcome, Long> out = new EnumMap<>(Outcome.class);
        for (Outcome o : Outcome.values()) {
            out.put(o, outcomes[o.ordinal()]);
        }
        return out;
    }

    /** Integrates {@code event}; never leaves the ledger half-updated. */
    public Outcome apply(LedgerEvent event) {
        Outcome o = applyChecked(EventChecks.fromRegistration(event, config.registeredAt()));
        outcomes[o.ordinal()]++;
        return o;
    }

    private Outcome applyChecked(LedgerEvent event) {
        Optional<Outcome> refused = EventChecks.refusal(this, event);
        if (refused.isPresent()) {
            return refused.get();
        }
        long t = event.at();
        enterRound(t);
        quanta.refresh(t);
        quanta.expire(t);
        if (event instanceof TaskStarted s) {
            start(s, t);
        } else if (event instanceof TaskFinished f) {
            finish(f, t);
        } else if (event instanceof DemandChanged d) {
            demand(d, t);
        } else if (event instanceof CapacityChanged c) {
            advanceAll(t);
            capacity = c.capacity();
            recomputeAll();
        } else if (event instanceof WeightChanged w) {
            advanceAll(t);
            TenantNode n = ensure(w.tenant(), t);
            n.weight = w.weight();
            configHeld = false;
            recomputeAll();
        }
        clock = t;
        return Outcome.APPLIED;
    }

    private void start(TaskStarted s, long t) {
        TenantNode leaf = leaf(s.tenant(), t);
        holdings.taskStarted(leaf, s.resources(), capacity, t);
        tasks.put(s.taskId(), quanta.start(s, leaf, t, capacity));
    }

    private void finish(TaskFinished f, long t) {
        RunningTask task = tasks.remove(f.taskId());
        touchPath(task.tenant, t);
        holdings.taskFinished(task.tenant, task.resources, capacity);
        quanta.finished(task, t);
    }

    private void demand(DemandChanged d, long t) {
        holdings.demandChanged(leaf(d.tenant(), t), d.applicationId(), d.pending(), capacity, t);
    }

    /** The node of {@code path} (created when first seen, every share recomputed), its path advanced to {@code t}. */
    private TenantNode leaf(TenantPath path, long t) {
        TenantNode leaf = holder(path);
        if (leaf == null) {
            advanceAll(t);
            leaf = ensure(OwnLines.holderPath(tree, path), t);
            recomputeAll();
        }
        touchPath(leaf, t);
        return leaf;
    }

    /** The node that holds the tasks and demand named for {@code path} ({@link OwnLines}), or null when not yet. */
    TenantNode holder(TenantPath path) {
        return tree.get(OwnLines.holderPath(tree, path));
    }

    private void touchPath(TenantNode leaf, long t) {
        for (TenantNode n = leaf; n != null; n = n.parent) {
            integrals.advance(n, t);
        }
    }

    void advanceAll(long t) {
        for (TenantNode n : tree.ordered()) {
            integrals.advance(n, t);
        }
    }

    /** Shares top-down, then every rate and group sum. Callers have advanced every node to now. */
    void recomputeAll() {
        tree.recomputeShares(root, config.discountRate());
        for (TenantNode n : tree.ordered()) {
            NodeRates.compute(n, config.measure(), capacity);
        }
        for (TenantNode n : tree.ordered()) {
            NodeRates.resum(n);
        }
    }

    TenantNode ensure(TenantPath path, long t) {
        TenantNode n = tree.get(path);
        if (n != null) {
            return n;
        }
        TenantNode parent = ensure(path.parent(), t);
        return newNode(path, parent, TenantConfig.DEFAULT_WEIGHT, Double.NaN, "", t);
    }

    /** A new node; a leaf gaining its first child first hands what it held to its own line ({@link OwnLines}). */
    TenantNode newNode(TenantPath path, TenantNode parent, double weight, double discount, String plan,
            long t) {
        if (parent != null && OwnLines.handsOver(parent, path)) {
            TenantNode own = addNode(parent.path.ownLine(), parent, TenantConfig.DEFAULT_WEIGHT,
                    parent.discountOverride, parent.pricePlan, t);
            OwnLines.handOver(parent, own, tasks.values());
        }
        return addNode(path, parent, weight, discount, plan, t);
    }

    private TenantNode addNode(TenantPath path, TenantNode parent, double weight, double discount, String plan,
            long t) {
        TenantNode n = tree.add(path, parent, weight, discount, plan, t);
        if (parent != null) {
            quanta.nodeCreated(n);
        }
        integrals.memory().start(n.acc, t);
        return n;
    }

    /** Under ROUNDS, enters the round containing {@code t} if the clock is in an earlier one ({@link RoundStart}). */
    void enterRound(long t) {
        long start = RoundStart.after(config.memory(), clock, t);
        if (start > clock) {
            advanceAll(start);
            RoundStart.restartPools(tree.ordered(), start);
            clock = start;
        }
    }

    /**
     * Moves the clock to {@code t} (not before it, else {@code IllegalArgumentException}) without an event: under
     * ROUNDS, a round starting in {@code (clock, t]} starts ({@link #enterRound}) as before an event at {@code t}.
     */
    public void advanceTo(long t) {
        requireNotBefore(t);
        enterRound(t);
        clock = t;
    }

    /**
     * This ledger, standing exactly at a round start, continued under {@code variant}: the same cluster with other
     * tenant weights or discount rates (the cluster's and each tenant's) and nothing else different. Statements of
     * periods starting at or after the round start are the variant's ({@link Reweighting} says what crosses a round
     * boundary and why). This ledger is left as it was.
     *
     * @throws IllegalArgumentException
     *             when not under ROUNDS, the clock is not a round start, the variant differs in more than weights and
     *             discount rates, or a weight was set by an event
     */
    public ClusterLedger reweighted(ClusterConfig variant) {
        return Reweighting.continued(this, variant);
    }

    /**
     * Puts {@code variant} (other tenants or cluster discount rate only) in force from {@code at}, as weight-change
     * events at {@code at} would; what was integrated before stays ({@link Reweighting#reconfigure}, which refuses).
     */
    public void reconfigure(long at, ClusterConfig variant) {
        Reweighting.reconfigure(this, at, variant);
    }

    /** Whether {@code variant} differs from {@code config} in tenants and discount rate only ({@link #reconfigure}). */
    public static boolean reconfigurable(ClusterConfig config, ClusterConfig variant) {
        return Reweighting.sameButTenants(config, variant);
    }

    /** Whether {@code a} and {@code b} are the same configuration but for tenant weights and discount rates. */
    public static boolean sameButWeights(ClusterConfig a, ClusterConfig b) {
        return Reweighting.sameButWeights(a, b);
    }

    /**
     * The account of {@code path} at {@code at >= clock()}, without changing the ledger, apart from ending the time
     * quanta that ended by {@code at}: reads are expected at non-decreasing instants, and a read at an earlier
     * instant after a later one may miss a quantum top-up (scheduling values only, never the bill).
     *
     * @throws IllegalArgumentException
     *             for an unknown tenant or an instant before the clock
     */
    public TenantAccount account(TenantPath path, long at) {
        TenantNode n = tree.get(path);
        if (n == null) {
            throw new IllegalArgumentException("unknown tenant " + path + " in cluster " + config.clusterId());
        }
        requireNotBefore(at);
        quanta.expire(at);
        return integrals.account(n, at);
    }

    /** The accounts of every node at {@code at >= clock()}, root first, each made when read ({@link AccountTable}). */
    public AccountTable accounts(long at) {
        requireNotBefore(at);
        quanta.expire(at);
        AccountTable.Rows rows = new AccountTable.Rows(tree.size());
        Accumulators scratch = new Accumulators(at);
        for (TenantNode n : tree.ordered()) {
            integrals.addRow(n, at, scratch, rows);
        }
        return rows.table();
    }

    /**
     * Ends the open period at {@code at}: returns every node's account at that instant and starts the next period's
     * integrals at zero. Memory integrals are not touched. Moves the clock to {@code at}.
     */
    public List<TenantAccount> closePeriod(long at) {
        requireNotBefore(at);
        enterRound(at);
        advanceAll(at);
        List<TenantAccount> out = accounts(at);
        for (TenantNode n : tree.ordered()) {
            n.acc.clearPeriod();
        }
        clock = at;
        return out;
    }

    private void requireNotBefore(long at) {
        if (at < clock) {
            throw new IllegalArgumentException("instant " + at + " is before the ledger clock " + clock);
        }
    }
}
