package io.fairledger.core.ledger;

import io.fairledger.core.ledger.LedgerEvent.CapacityChanged;
import io.fairledger.core.ledger.LedgerEvent.DemandChanged;
import io.fairledger.core.ledger.LedgerEvent.TaskFinished;
import io.fairledger.core.ledger.LedgerEvent.TaskStarted;
import io.fairledger.core.ledger.LedgerEvent.WeightChanged;
import io.fairledger.core.model.ClusterConfig;
import io.fairledger.core.model.MemoryMode;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantConfig;
import io.fairledger.core.model.TenantPath;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The exact event-time LTRF ledger of one cluster (docs/domain.md sections 2-6; LTRF eqs. 3, 7, 9, 10, 12, 14-16,
 * Tang et al., 2014). Between two events every held share, demand and capacity is constant, so each integral grows by a
 * product; no ticks, no sampling.
 *
 * <h2>Cost per event</h2> A task or demand event changes the holdings of one tenant and its ancestors only. Each node
 * keeps the instant it was last advanced and is integrated lazily, when it is next touched or read. The lending terms
 * depend on the sums {@code B, U} of the sibling group; those are kept incrementally with global accumulators in
 * {@link SiblingGroup}, so a task start or finish costs O(depth) plus O(log b) for the quantum calendar (b tasks whose quantum ends in
 * the same second), independent of the
 * number of tenants. Capacity changes, weight changes and the first sight of a tenant change every share, so they
 * advance and recompute every node: O(tenants), rare by nature. The early-bird top-up looks at the arriving tenant's
 * siblings: O(siblings), once per tenant per round.
 *
 * <h2>Rules</h2>
 * <ul>
 * <li>Events are applied in event-time order. An event older than the ledger clock is rejected untouched
 * ({@link Outcome#REJECTED_LATE}); {@link io.fairledger.core.replay.Replay} is the path for late events.</li>
 * <li>A second start of a running task id is ignored (the first stands); a finish of a task that is not running is
 * ignored. Both are counted in {@link #ignoredEvents()}. Every check happens before the first mutation, so an event is
 * applied entirely or not at all.</li>
 * <li>A tenant first seen in an event is created with the default weight 1 (docs/domain.md section 1), with any missing
 * ancestors.</li>
 * <li>A demand change replaces one application's pending demand; a tenant's own pending demand is the sum over its
 * applications (docs/domain.md section 3), so simultaneous changes of several applications commute.</li>
 * <li>{@code S_i} is {@code w_i / sum of all configured siblings' weights} times the parent's share (resource as you
 * pay, docs/domain.md section 2); "active siblings only" is not implemented.</li>
 * <li>Early-bird top-up (eq. 10/16): when a node becomes active for the first time in its memory period (the round for
 * ROUNDS, since registration otherwise) it gets {@code phi} from its siblings that arrived strictly earlier and are
 * active, per {@link io.fairledger.core.model.ParPolicy}. A node active when a round starts arrived at the boundary
 * (eq. 14).</li>
 * </ul>
 * Parts: the tree and its shares are {@link TenantTree}, the memory integrals advance per mode by
 * {@link MemoryIntegration}, grants for the tree are computed from this ledger's accounts by
 * {@code io.fairledger.core.grant.TreeGrants}. Not thread-safe: one ledger per cluster, fed by one consumer.
 */
public final class ClusterLedger {

    private final ClusterConfig config;
    final TenantTree tree = new TenantTree();
    private final NodeIntegrals integrals;
    final Map<String, RunningTask> tasks = new HashMap<>();
    final TimeQuanta quanta;
    final long[] outcomes = new long[Outcome.values().length];
    private final TenantNode root;
    private ResourceVector capacity;
    private long clock;

    /** A ledger at the instant the cluster was registered, with the configured tenants and no task running. */
    public ClusterLedger(ClusterConfig config) {
        this.config = config;
        this.capacity = config.capacity();
        this.clock = config.registeredAt();
        this.integrals = new NodeIntegrals(MemoryIntegration.of(config.memory()), config.registeredAt());
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
     * A ledger restored from a checkpoint ({@link LedgerCodec}): {@code nodes} root first, parents before children,
     * each already holding its state; {@code quanta} and {@code tasks} as they stood.
     */
    ClusterLedger(ClusterConfig config, long clock, ResourceVector capacity, long[] outcomes, List<TenantNode> nodes,
            TimeQuanta quanta, Map<String, RunningTask> tasks) {
        this.config = config;
        this.capacity = capacity;
        this.clock = clock;
        this.integrals = new NodeIntegrals(MemoryIntegration.of(config.memory()), config.registeredAt());
        this.quanta = quanta;
        for (TenantNode n : nodes) {
            tree.restore(n);
        }
        this.root = nodes.get(0);
        this.tasks.putAll(tasks);
        System.arraycopy(outcomes, 0, this.outcomes, 0, this.outcomes.length);
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
        Outcome o = applyChecked(event);
        outcomes[o.ordinal()]++;
        return o;
    }

    private Outcome applyChecked(LedgerEvent event) {
        if (!event.clusterId().equals(config.clusterId())) {
            return Outcome.REJECTED_OTHER_CLUSTER;
        }
        long t = event.at();
        if (t < clock) {
            return Outcome.REJECTED_LATE;
        }
        if (event instanceof TaskStarted s) {
            if (tasks.containsKey(s.taskId())) {
                return Outcome.IGNORED_DUPLICATE_START;
            }
            for (int r = 0; r < ResourceVector.TYPES; r++) {
                Math.addExact(root.held[r], s.resources().get(r));
            }
        } else if (event instanceof TaskFinished f) {
            if (!tasks.containsKey(f.taskId())) {
                return Outcome.IGNORED_UNKNOWN_TASK;
            }
        } else if (event instanceof DemandChanged d) {
            TenantNode n = tree.get(d.tenant());
            ResourceVector before = n == null
                    ? ResourceVector.ZERO
                    : n.pendingByApplication.getOrDefault(d.applicationId(), ResourceVector.ZERO);
            for (int r = 0; r < ResourceVector.TYPES; r++) {
                Math.addExact(root.pending[r] - before.get(r), d.pending().get(r));
            }
        }
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
            TenantNode n = tree.get(w.tenant());
            advanceAll(t);
            if (n == null) {
                n = ensure(w.tenant(), t);
            }
            n.weight = w.weight();
            recomputeAll();
        }
        clock = t;
        return Outcome.APPLIED;
    }

    private void start(TaskStarted s, long t) {
        TenantNode leaf = tree.get(s.tenant());
        if (leaf == null) {
            advanceAll(t);
            leaf = ensure(s.tenant(), t);
            recomputeAll();
        }
        touchPath(leaf, t);
        ResourceVector v = s.resources();
        for (TenantNode n = leaf; n != null; n = n.parent) {
            boolean wasActive = n.active();
            for (int r = 0; r < ResourceVector.TYPES; r++) {
                n.held[r] += v.get(r);
            }
            n.runningTasks++;
            NodeRates.update(n, config.measure(), capacity);
            if (!wasActive) {
                arrive(n, t);
            }
        }
        tasks.put(s.taskId(), quanta.start(s, leaf, t, capacity));
    }

    private void finish(TaskFinished f, long t) {
        RunningTask task = tasks.remove(f.taskId());
        TenantNode leaf = task.tenant;
        touchPath(leaf, t);
        for (TenantNode n = leaf; n != null; n = n.parent) {
            for (int r = 0; r < ResourceVector.TYPES; r++) {
                n.held[r] -= task.resources.get(r);
            }
            n.runningTasks--;
            NodeRates.update(n, config.measure(), capacity);
        }
        quanta.finished(task, t);
    }

    private void demand(DemandChanged d, long t) {
        TenantNode leaf = tree.get(d.tenant());
        if (leaf == null) {
            advanceAll(t);
            leaf = ensure(d.tenant(), t);
            recomputeAll();
        }
        touchPath(leaf, t);
        ResourceVector before = d.pending().isZero()
                ? leaf.pendingByApplication.remove(d.applicationId())
                : leaf.pendingByApplication.put(d.applicationId(), d.pending());
        long[] delta = new long[ResourceVector.TYPES];
        for (int r = 0; r < ResourceVector.TYPES; r++) {
            delta[r] = d.pending().get(r) - (before == null ? 0 : before.get(r));
            leaf.ownPending[r] += delta[r];
        }
        for (TenantNode n = leaf; n != null; n = n.parent) {
            boolean wasActive = n.active();
            for (int r = 0; r < ResourceVector.TYPES; r++) {
                n.pending[r] += delta[r];
            }
            NodeRates.update(n, config.measure(), capacity);
            if (!wasActive && n.active()) {
                arrive(n, t);
            }
        }
    }

    /** Early-bird top-up when {@code n} becomes active at {@code t} (LTRF eq. 10 and 16, docs/domain.md section 5). */
    private void arrive(TenantNode n, long t) {
        if (n.acc.arrived || n.parent == null) {
            return;
        }
        n.acc.arrived = true;
        n.acc.arrivalAt = t;
        double phi = 0;
        boolean anyEarlier = false;
        for (TenantNode k : n.parent.children) {
            if (k == n) {
                continue;
            }
            integrals.advance(k, t);
            if (k.acc.arrived && k.active() && k.acc.arrivalAt < t) {
                double f = k.acc.memCounted + k.acc.phi;
                phi = switch (config.par()) {
                    case MAX -> anyEarlier ? Math.max(phi, f) : f;
                    case MIN -> anyEarlier ? Math.min(phi, f) : f;
                    case ZERO -> 0;
                };
                anyEarlier = true;
            }
        }
        n.acc.phi = phi;
    }

    private void touchPath(TenantNode leaf, long t) {
        for (TenantNode n = leaf; n != null; n = n.parent) {
            integrals.advance(n, t);
        }
    }

    private void advanceAll(long t) {
        for (TenantNode n : tree.ordered()) {
            integrals.advance(n, t);
        }
    }

    /** Shares top-down, then every rate and group sum. Callers have advanced every node to now. */
    private void recomputeAll() {
        tree.recomputeShares(root, config.discountRate());
        for (TenantNode n : tree.ordered()) {
            NodeRates.compute(n, config.measure(), capacity);
        }
        for (TenantNode n : tree.ordered()) {
            NodeRates.resum(n);
        }
    }

    private TenantNode ensure(TenantPath path, long t) {
        TenantNode n = tree.get(path);
        if (n != null) {
            return n;
        }
        TenantNode parent = ensure(path.parent(), t);
        return newNode(path, parent, TenantConfig.DEFAULT_WEIGHT, Double.NaN, "", t);
    }

    private TenantNode newNode(TenantPath path, TenantNode parent, double weight, double discount, String plan,
            long t) {
        TenantNode n = tree.add(path, parent, weight, discount, plan, t);
        if (parent != null) {
            quanta.nodeCreated(n);
        }
        integrals.memory().start(n.acc, t);
        return n;
    }

    /**
     * Under ROUNDS, brings the ledger to the start {@code R} of the round containing {@code t} when its clock is still
     * in an earlier round, before anything at {@code t} is applied: every node is advanced to {@code R} (S-LTMM, LTRF
     * eqs. 12-14, Tang et al., 2014: its memory integrals, early-bird top-up {@code phi} and arrival restart there, a
     * node active at {@code R} arriving at {@code R}), then every lending pool starts again from zero
     * ({@code K_lend = K_borrow = 0}, each node's seen values 0, {@code B, U} summed afresh from the children).
     *
     * <p>
     * Why: the lending integrals only ever use differences of {@code K}, so restarting them changes no value beyond
     * floating-point rounding; but it makes the state at a round start a function of what holds across the boundary
     * (holdings, demand, tasks, quanta, capacity, tree) and of the weights and discount rates, with no trace of how
     * the weights were before. That is what lets a what-if that changes weights or discount rates start at the round
     * ({@link #reweighted}) and still equal the replay from the registration exactly. O(tenants), once per round.
     */
    private void enterRound(long t) {
        if (!(config.memory() instanceof MemoryMode.Rounds rounds)) {
            return;
        }
        long start = rounds.startOf(rounds.roundOf(t));
        if (start <= clock) {
            return;
        }
        advanceAll(start);
        for (TenantNode n : tree.ordered()) {
            SiblingGroup g = n.childGroup;
            g.kLend = 0;
            g.kBorrow = 0;
            g.last = start;
            n.acc.kLendSeen = 0;
            n.acc.kBorrowSeen = 0;
            NodeRates.resum(n);
        }
        clock = start;
    }

    /**
     * Moves the clock to {@code t} without an event: under ROUNDS, a round starting in {@code (clock, t]} starts
     * ({@link #enterRound}) as it would before an event at {@code t}. The state is the one any event at {@code t} finds.
     *
     * @throws IllegalArgumentException
     *             for an instant before the clock
     */
    public void advanceTo(long t) {
        requireNotBefore(t);
        enterRound(t);
        clock = t;
    }

    /**
     * This ledger, standing exactly at a round start, continued under {@code variant}: the same cluster with other
     * tenant weights or discount rates (the cluster's and each tenant's) and nothing else different. This ledger
     * must not be used afterwards (the two share their nodes).
     *
     * <p>
     * What crosses a round boundary and how it depends on weights and discount rates (S-LTMM, LTRF eqs. 12-14, Tang et
     * al., 2014), once {@link #enterRound} has run at the round start {@code R}:
     * <ul>
     * <li>independent of them: the tree and its creation order, holdings, pending demand by application, running
     * tasks, capacity, event outcomes, time quanta (task sizes are shares of capacity, adaptive quanta are mean task
     * durations), the memory integrals (0 at {@code R}), {@code phi} (0), arrivals (a node active at {@code R}
     * arrived at {@code R}), the lending pools ({@code K = 0});</li>
     * <li>derived from them and rebuilt here: each node's share (eq. 1 top-down from the weights) and discount rate,
     * its rates ({@code g' = min(g, S) + eta max(g - S, 0)} and the entitled, borrowed and unused shares), the pools'
     * {@code B, U};</li>
     * <li>not rebuilt: the integrals of the open period up to {@code R}, which depend on the old weights. The
     * statement of a period that started before {@code R} is therefore not the variant's; those of periods starting
     * at or after {@code R} are.</li>
     * </ul>
     * A weight set by a {@link LedgerEvent.WeightChanged} event replaces the configured one in a replay under either
     * configuration, so it cannot be rebuilt from the variant: the ledger refuses when a node's weight is not the one
     * {@code config()} gives it (configured, or {@link TenantConfig#DEFAULT_WEIGHT}). An event that set a weight to
     * exactly its configured value cannot be told apart: the caller must know that its events hold no weight change
     * (a server's stored facts never do).
     *
     * @throws IllegalArgumentException
     *             when not under ROUNDS, the clock is not a round start or the round has not been entered there, the
     *             variant differs in more than weights and discount rates, or a weight was set by an event
     */
    public ClusterLedger reweighted(ClusterConfig variant) {
        if (!(config.memory() instanceof MemoryMode.Rounds rounds)) {
            throw new IllegalArgumentException("only a ledger under ROUNDS can be continued with other weights from a "
                    + "round start, not under " + config.memory());
        }
        if (rounds.startOf(rounds.roundOf(clock)) != clock) {
            throw new IllegalArgumentException("the ledger clock " + clock + " is not a round start");
        }
        if (!sameButWeights(config, variant)) {
            throw new IllegalArgumentException("the variant differs from the ledger's configuration in more than "
                    + "tenant weights and discount rates");
        }
        Map<TenantPath, TenantConfig> configured = new HashMap<>();
        config.tenants().forEach(t -> configured.put(t.path(), t));
        for (TenantNode n : tree.ordered()) {
            TenantConfig c = configured.get(n.path);
            double expected = n.parent == null ? 1.0 : c == null ? TenantConfig.DEFAULT_WEIGHT : c.weight();
            if (Double.compare(n.weight, expected) != 0) {
                throw new IllegalArgumentException("the weight of " + n.path + " (" + n.weight
                        + ") was set by an event, not by the configuration (" + expected + ")");
            }
        }
        List<TenantNode> nodes = new ArrayList<>(tree.ordered());
        for (TenantNode n : nodes) {
            n.children.clear();
        }
        ClusterLedger next = new ClusterLedger(variant, clock, capacity, outcomes, nodes, quanta, tasks);
        for (TenantConfig t : variant.tenants()) {
            TenantNode n = next.tree.get(t.path());
            if (n != null) {
                n.weight = t.weight();
                n.discountOverride = t.discountOverride().orElse(Double.NaN);
            }
        }
        next.recomputeAll();
        return next;
    }

    /** Whether {@code a} and {@code b} are the same configuration but for tenant weights and discount rates. */
    public static boolean sameButWeights(ClusterConfig a, ClusterConfig b) {
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

    /** The accounts of every node at {@code at >= clock()}, root first. */
    public List<TenantAccount> accounts(long at) {
        requireNotBefore(at);
        quanta.expire(at);
        List<TenantAccount> out = new ArrayList<>(tree.size());
        for (TenantNode n : tree.ordered()) {
            out.add(integrals.account(n, at));
        }
        return out;
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
