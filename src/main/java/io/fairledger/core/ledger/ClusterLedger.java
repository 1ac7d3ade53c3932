package io.fairledger.core.ledger;

import io.fairledger.core.grant.Claimant;
import io.fairledger.core.grant.GrantRequest;
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
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The exact event-time LTRF ledger of one cluster (DOMAIN.md sections 2-6; LTRF eqs. 3, 7, 9, 10, 12, 14-16, seed
 * 004). Between two events every held share, demand and capacity is constant, so each integral grows by a product; no
 * ticks, no sampling.
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
 * <li>A tenant first seen in an event is created with the default weight 1 (DOMAIN.md section 1), with any missing
 * ancestors.</li>
 * <li>{@code S_i} is {@code w_i / sum of all configured siblings' weights} times the parent's share (resource as you
 * pay, DOMAIN.md section 2); "active siblings only" is not implemented.</li>
 * <li>Early-bird top-up (eq. 10/16): when a node becomes active for the first time in its memory period (the round for
 * ROUNDS, since registration otherwise) it gets {@code phi} from its siblings that arrived strictly earlier and are
 * active, per {@link io.fairledger.core.model.ParPolicy}. A node active when a round starts arrived at the boundary
 * (eq. 14).</li>
 * </ul>
 * Not thread-safe: one ledger per cluster, fed by one consumer.
 */
public final class ClusterLedger {

    private static final double LN2 = Math.log(2.0);

    private final ClusterConfig config;
    private final Map<TenantPath, TenantNode> nodes = new HashMap<>();
    private final List<TenantNode> ordered = new ArrayList<>();
    private final Map<String, RunningTask> tasks = new HashMap<>();
    private final AdaptiveQuantum quantum = new AdaptiveQuantum();
    /** Young tasks by quantum end; finished ones stay until their end, flagged not young. */
    private final QuantumExpiry young;
    private final java.util.function.Consumer<RunningTask> endIfYoung = task -> {
        if (task.young) {
            endQuantum(task);
        }
    };
    private final long[] outcomes = new long[Outcome.values().length];
    private final TenantNode root;
    private ResourceVector capacity;
    private long clock;
    private long nextQuantumRefresh;

    /** A ledger at the instant the cluster was registered, with the configured tenants and no task running. */
    public ClusterLedger(ClusterConfig config) {
        this.config = config;
        this.capacity = config.capacity();
        this.clock = config.registeredAt();
        this.young = new QuantumExpiry(config.registeredAt());
        this.nextQuantumRefresh = config.registeredAt() + config.quantumRefreshMs();
        this.root = newNode(TenantPath.ROOT, null, 1.0, Double.NaN, "", clock);
        root.quantumMs = config.rootQuantumMs();
        List<TenantConfig> parentsFirst = new ArrayList<>(config.tenants());
        parentsFirst.sort(java.util.Comparator.comparingInt(t -> t.path().depth()));
        for (TenantConfig t : parentsFirst) {
            TenantNode parent = ensure(t.path().parent(), clock);
            TenantNode existing = nodes.get(t.path());
            if (existing != null) {
                existing.weight = t.weight();
            } else {
                newNode(t.path(), parent, t.weight(), t.discountOverride().orElse(Double.NaN), t.pricePlan(), clock);
            }
        }
        recomputeAll();
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
        List<TenantPath> out = new ArrayList<>(ordered.size());
        for (TenantNode n : ordered) {
            out.add(n.path);
        }
        return out;
    }

    /** The children of {@code parent}, in creation order; empty for a leaf or an unknown node. */
    public List<TenantPath> children(TenantPath parent) {
        TenantNode p = nodes.get(parent);
        List<TenantPath> out = new ArrayList<>();
        if (p != null) {
            for (TenantNode c : p.children) {
                out.add(c.path);
            }
        }
        return out;
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
            TenantNode n = nodes.get(d.tenant());
            for (int r = 0; r < ResourceVector.TYPES; r++) {
                Math.addExact(root.pending[r] - (n == null ? 0 : n.ownPending[r]), d.pending().get(r));
            }
        }
        refreshQuantum(t);
        expireQuanta(t);
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
            TenantNode n = nodes.get(w.tenant());
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

    /** Ends the quantum of every young task whose quantum ended by {@code t}. */
    private void expireQuanta(long t) {
        young.expire(t, endIfYoung);
    }

    private void endQuantum(RunningTask task) {
        task.young = false;
        for (TenantNode n = task.tenant; n != null; n = n.parent) {
            n.removeYoung(task.size, task.quantumEnd - config.registeredAt());
        }
    }

    private void refreshQuantum(long t) {
        if (config.rootQuantumMs() > 0 && t >= nextQuantumRefresh) {
            quantum.refresh();
            long interval = config.quantumRefreshMs();
            nextQuantumRefresh = config.registeredAt()
                    + (Math.floorDiv(t - config.registeredAt(), interval) + 1) * interval;
        }
    }

    private void start(TaskStarted s, long t) {
        TenantNode leaf = nodes.get(s.tenant());
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
            updateRates(n);
            if (!wasActive) {
                arrive(n, t);
            }
        }
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
        tasks.put(s.taskId(), task);
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
            updateRates(n);
        }
        if (task.young) {
            endQuantum(task);
        }
        if (task.app != null) {
            quantum.completed(task.app, t - task.start);
        }
    }

    private void demand(DemandChanged d, long t) {
        TenantNode leaf = nodes.get(d.tenant());
        if (leaf == null) {
            advanceAll(t);
            leaf = ensure(d.tenant(), t);
            recomputeAll();
        }
        touchPath(leaf, t);
        long[] delta = new long[ResourceVector.TYPES];
        for (int r = 0; r < ResourceVector.TYPES; r++) {
            delta[r] = d.pending().get(r) - leaf.ownPending[r];
            leaf.ownPending[r] = d.pending().get(r);
        }
        for (TenantNode n = leaf; n != null; n = n.parent) {
            boolean wasActive = n.active();
            for (int r = 0; r < ResourceVector.TYPES; r++) {
                n.pending[r] += delta[r];
            }
            updateRates(n);
            if (!wasActive && n.active()) {
                arrive(n, t);
            }
        }
    }

    /** Early-bird top-up when {@code n} becomes active at {@code t} (LTRF eq. 10 and 16, DOMAIN.md section 5). */
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
            advance(k, t);
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
            advance(n, t);
        }
    }

    private void advance(TenantNode n, long t) {
        double kLend = 0;
        double kBorrow = 0;
        if (n.parent != null) {
            SiblingGroup g = n.parent.childGroup;
            g.advance(t);
            kLend = g.kLend;
            kBorrow = g.kBorrow;
        }
        integrate(n, n.acc, t, kLend, kBorrow);
    }

    /** Advances {@code acc} of {@code n} to {@code t}: the node's rates have been constant since {@code acc.last}. */
    private void integrate(TenantNode n, Accumulators acc, long t, double kLend, double kBorrow) {
        long dt = t - acc.last;
        if (dt <= 0) {
            return;
        }
        acc.actual += n.g * dt;
        acc.counted += n.countedRate * dt;
        acc.entitled += n.e * dt;
        acc.demand += n.d * dt;
        acc.borrowedRaw += n.b * dt;
        for (int r = 0; r < ResourceVector.TYPES; r++) {
            if (n.held[r] != 0) {
                acc.resourceMs[r].addProduct(n.held[r], dt);
            }
        }
        if (n.parent != null) {
            acc.lent += n.u * (kLend - acc.kLendSeen);
            acc.borrowedFromSiblings += n.b * (kBorrow - acc.kBorrowSeen);
            acc.kLendSeen = kLend;
            acc.kBorrowSeen = kBorrow;
        }
        MemoryMode mode = config.memory();
        if (mode instanceof MemoryMode.Rounds rounds) {
            if (t >= acc.roundEnd) {
                long round = rounds.roundOf(t);
                // eq. 12/15: everything restarts at the boundary; what ran across it counts from it
                long since = t - rounds.startOf(round);
                acc.memActual = n.g * since;
                acc.memCounted = n.countedRate * since;
                acc.memEntitled = n.e * since;
                acc.phi = 0;
                acc.arrived = n.active();
                acc.arrivalAt = rounds.startOf(round);
                acc.round = round;
                acc.roundEnd = rounds.startOf(round + 1);
            } else {
                acc.memActual += n.g * dt;
                acc.memCounted += n.countedRate * dt;
                acc.memEntitled += n.e * dt;
            }
        } else if (mode instanceof MemoryMode.Decay decay) {
            double h = decay.halfLifeMs();
            double x = -dt * LN2 / h;
            double keep = Math.exp(x);
            // expm1 keeps 1 - 2^(-dt/H) accurate when dt is tiny against H
            double gain = h / LN2 * -Math.expm1(x);
            acc.memActual = acc.memActual * keep + n.g * gain;
            acc.memCounted = acc.memCounted * keep + n.countedRate * gain;
            acc.memEntitled = acc.memEntitled * keep + n.e * gain;
            acc.phi *= keep;
        } else {
            acc.memActual += n.g * dt;
            acc.memCounted += n.countedRate * dt;
            acc.memEntitled += n.e * dt;
        }
        acc.last = t;
    }

    private void advanceAll(long t) {
        for (TenantNode n : ordered) {
            advance(n, t);
        }
    }

    /** Recomputes n's rates from its holdings and moves its sibling group's sums by the difference. */
    private void updateRates(TenantNode n) {
        double oldB = n.b;
        double oldU = n.u;
        computeRates(n);
        if (n.parent != null) {
            SiblingGroup g = n.parent.childGroup;
            g.borrowedSum += n.b - oldB;
            g.unusedSum += n.u - oldU;
            if (++g.updatesSinceRecompute >= n.parent.children.size()) {
                resumGroup(n.parent);
            }
        }
    }

    private void computeRates(TenantNode n) {
        double s = n.share;
        n.g = config.measure().share(n.held[0], n.held[1], n.held[2], capacity);
        n.d = config.measure().share(n.held[0] + n.pending[0], n.held[1] + n.pending[1], n.held[2] + n.pending[2],
                capacity);
        n.countedRate = Math.min(n.g, s) + n.eta * Math.max(n.g - s, 0);
        n.e = Math.min(n.d, s);
        n.b = Math.max(n.g - s, 0);
        n.u = Math.max(s - n.g, 0);
    }

    private static void resumGroup(TenantNode parent) {
        double b = 0;
        double u = 0;
        for (TenantNode c : parent.children) {
            b += c.b;
            u += c.u;
        }
        parent.childGroup.borrowedSum = b;
        parent.childGroup.unusedSum = u;
        parent.childGroup.updatesSinceRecompute = 0;
    }

    /** Shares top-down, then every rate and group sum. Callers have advanced every node to now. */
    private void recomputeAll() {
        root.share = 1.0;
        root.eta = config.discountRate();
        for (TenantNode n : ordered) {
            double sum = 0;
            for (TenantNode c : n.children) {
                sum += c.weight;
            }
            for (TenantNode c : n.children) {
                c.share = sum > 0 ? n.share * c.weight / sum : 0;
                c.eta = Double.isNaN(c.discountOverride) ? config.discountRate() : c.discountOverride;
            }
            computeRates(n);
        }
        for (TenantNode n : ordered) {
            resumGroup(n);
        }
    }

    private TenantNode ensure(TenantPath path, long t) {
        TenantNode n = nodes.get(path);
        if (n != null) {
            return n;
        }
        TenantNode parent = ensure(path.parent(), t);
        return newNode(path, parent, TenantConfig.DEFAULT_WEIGHT, Double.NaN, "", t);
    }

    private TenantNode newNode(TenantPath path, TenantNode parent, double weight, double discount, String plan,
            long t) {
        TenantNode n = new TenantNode(ordered.size(), path, parent, weight, discount, plan, t);
        if (parent != null) {
            parent.childGroup.advance(t);
            n.acc.kLendSeen = parent.childGroup.kLend;
            n.acc.kBorrowSeen = parent.childGroup.kBorrow;
            parent.children.add(n);
            quantum.nodeCreated(n);
        }
        if (config.memory() instanceof MemoryMode.Rounds rounds) {
            n.acc.round = rounds.roundOf(t);
            n.acc.roundEnd = rounds.startOf(n.acc.round + 1);
        }
        nodes.put(path, n);
        ordered.add(n);
        return n;
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
        TenantNode n = nodes.get(path);
        if (n == null) {
            throw new IllegalArgumentException("unknown tenant " + path + " in cluster " + config.clusterId());
        }
        requireNotBefore(at);
        expireQuanta(at);
        return accountOf(n, at);
    }

    /** The accounts of every node at {@code at >= clock()}, root first. */
    public List<TenantAccount> accounts(long at) {
        requireNotBefore(at);
        expireQuanta(at);
        List<TenantAccount> out = new ArrayList<>(ordered.size());
        for (TenantNode n : ordered) {
            out.add(accountOf(n, at));
        }
        return out;
    }

    /**
     * Ends the open period at {@code at}: returns every node's account at that instant and starts the next period's
     * integrals at zero. Memory integrals are not touched. Moves the clock to {@code at}.
     */
    public List<TenantAccount> closePeriod(long at) {
        requireNotBefore(at);
        advanceAll(at);
        List<TenantAccount> out = accounts(at);
        for (TenantNode n : ordered) {
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

    private TenantAccount accountOf(TenantNode n, long at) {
        Accumulators a = n.acc.copy();
        double kLend = 0;
        double kBorrow = 0;
        if (n.parent != null) {
            kLend = n.parent.childGroup.kLendAt(at);
            kBorrow = n.parent.childGroup.kBorrowAt(at);
        }
        integrate(n, a, at, kLend, kBorrow);
        List<BigInteger> res = List.of(a.resourceMs[0].value(), a.resourceMs[1].value(), a.resourceMs[2].value());
        var rates = new TenantAccount.Rates(new ResourceVector(n.held[0], n.held[1], n.held[2]),
                new ResourceVector(n.pending[0], n.pending[1], n.pending[2]), n.g, n.countedRate, n.d, n.e, n.b,
                n.u, n.runningTasks);
        var period = new TenantAccount.PeriodTotals(res, a.actual, a.counted, a.entitled, a.demand, a.borrowedRaw,
                a.lent, a.borrowedFromSiblings);
        var memory = new TenantAccount.Memory(a.memActual, a.memCounted, a.memEntitled, a.phi,
                n.quantumTopUp(at - config.registeredAt()));
        return new TenantAccount(n.path, n.weight, n.share, n.eta, n.pricePlan, rates, period, memory);
    }

    /**
     * What the grant engine needs to split {@code available} among the children of {@code parent} at {@code at} over
     * an interval of {@code intervalMs} (DOMAIN.md section 7): per child its weight, absolute share, demand (held +
     * pending) and scheduling value {@code F + phi + quantum top-up}. Grants use dominant shares.
     */
    public GrantRequest grantRequest(TenantPath parent, long at, long intervalMs, double[] available) {
        TenantNode p = nodes.get(parent);
        if (p == null) {
            throw new IllegalArgumentException("unknown tenant " + parent + " in cluster " + config.clusterId());
        }
        requireNotBefore(at);
        expireQuanta(at);
        List<Claimant> claimants = new ArrayList<>(p.children.size());
        for (TenantNode c : p.children) {
            TenantAccount acc = accountOf(c, at);
            double[] demand = new double[ResourceVector.TYPES];
            for (int r = 0; r < ResourceVector.TYPES; r++) {
                demand[r] = c.held[r] + c.pending[r];
            }
            claimants.add(new Claimant(c.path.toString(), c.weight, c.share, demand, acc.memory().schedulingValue(),
                    c.eta));
        }
        double[] cap = new double[ResourceVector.TYPES];
        for (int r = 0; r < ResourceVector.TYPES; r++) {
            cap[r] = capacity.get(r);
        }
        return new GrantRequest(cap, available == null ? cap : available, intervalMs, claimants);
    }

    /**
     * Grants for the whole tree at {@code at}, level by level (siblings compete for their parent's grant, DOMAIN.md
     * section 1): the root's children share the capacity, then each node's children share what the node was granted.
     * Returns every node's allocation per resource type (millicores, MB, GPUs), root excluded; O(tenants log tenants).
     */
    public Map<TenantPath, double[]> grantTree(long at, long intervalMs, io.fairledger.core.grant.GrantPolicy policy) {
        Map<TenantPath, double[]> out = new java.util.LinkedHashMap<>();
        for (GrantLevel level : grantLevels(at, intervalMs, policy)) {
            for (var g : level.grants().grants()) {
                out.put(TenantPath.parse(g.id()), g.allocation());
            }
        }
        return out;
    }

    /** The levels of {@link #grantTree}, parents before their children, each with its inputs and its order. */
    public List<GrantLevel> grantLevels(long at, long intervalMs, io.fairledger.core.grant.GrantPolicy policy) {
        requireNotBefore(at);
        List<GrantLevel> out = new ArrayList<>();
        double[] cap = new double[ResourceVector.TYPES];
        for (int r = 0; r < ResourceVector.TYPES; r++) {
            cap[r] = capacity.get(r);
        }
        grantLevel(root, cap, at, intervalMs, policy, out);
        return out;
    }

    private void grantLevel(TenantNode parent, double[] available, long at, long intervalMs,
            io.fairledger.core.grant.GrantPolicy policy, List<GrantLevel> out) {
        if (parent.children.isEmpty()) {
            return;
        }
        GrantRequest request = grantRequest(parent.path, at, intervalMs, available);
        var grants = policy.grant(request);
        out.add(new GrantLevel(parent.path, request, grants));
        for (int i = 0; i < parent.children.size(); i++) {
            grantLevel(parent.children.get(i), grants.grants().get(i).allocation(), at, intervalMs, policy, out);
        }
    }
}
