package io.fairledger.core.ledger;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import io.fairledger.core.ledger.LedgerState.AppRef;
import io.fairledger.core.ledger.LedgerState.Bucket;
import io.fairledger.core.ledger.LedgerState.Integrals;
import io.fairledger.core.ledger.LedgerState.Node;
import io.fairledger.core.ledger.LedgerState.Pool;
import io.fairledger.core.ledger.LedgerState.Quanta;
import io.fairledger.core.ledger.LedgerState.QuantumSums;
import io.fairledger.core.ledger.LedgerState.Rates;
import io.fairledger.core.ledger.LedgerState.Running;
import io.fairledger.core.ledger.LedgerState.Task;
import io.fairledger.core.ledger.LedgerState.Tasks;
import io.fairledger.core.ledger.LedgerState.TenantApps;
import io.fairledger.core.model.ClusterConfig;
import io.fairledger.core.model.ResourceVector;

/**
 * A {@link ClusterLedger}'s mutable parts as a {@link LedgerState} and back: the one place that reads and sets the
 * fields of the ledger's classes for a snapshot. Taking a snapshot moves nothing; a ledger restored from one holds the
 * same values in the same orders (hash maps filled in key order, the calendar's heap re-added in its array order), so
 * it goes on exactly as the original. O(tenants + tasks + applications) either way.
 */
final class LedgerSnapshot {

    private LedgerSnapshot() {
    }

    /** The state of {@code ledger}. */
    static LedgerState of(ClusterLedger ledger) {
        List<Long> outcomes = new ArrayList<>(ledger.outcomes.length);
        for (long o : ledger.outcomes) {
            outcomes.add(o);
        }
        List<TenantNode> tree = ledger.tree.ordered();
        List<Node> nodes = new ArrayList<>(tree.size());
        for (TenantNode n : tree) {
            nodes.add(node(n));
        }
        return new LedgerState(ledger.clock(), ledger.capacity(), outcomes, nodes, quanta(ledger.quanta, tree),
                tasks(ledger.tasks, ledger.quanta.young));
    }

    /**
     * The ledger holding {@code state}, under the configuration it was built with.
     *
     * @throws IllegalArgumentException
     *             when the state refers to a node, task or application it does not hold, or a node's parent does not
     *             come before it
     */
    static ClusterLedger restore(ClusterConfig config, LedgerState state) {
        List<TenantNode> nodes = new ArrayList<>(state.nodes().size());
        for (Node n : state.nodes()) {
            nodes.add(node(n, nodes));
        }
        TimeQuanta quanta = new TimeQuanta(config);
        restoreQuanta(state.quanta(), quanta, nodes);
        Map<String, RunningTask> tasks = restoreTasks(state.tasks(), quanta, nodes);
        long[] outcomes = state.outcomes().stream().mapToLong(Long::longValue).toArray();
        return new ClusterLedger(config, state.clock(), state.capacity(), outcomes, nodes, quanta, tasks);
    }

    private static Node node(TenantNode n) {
        Accumulators a = n.acc;
        List<BigInteger> resourceMs = new ArrayList<>(a.resourceMs.length);
        List<Double> uncounted = new ArrayList<>(a.uncountedResourceMs.length);
        for (int r = 0; r < a.resourceMs.length; r++) {
            resourceMs.add(a.resourceMs[r].value());
            uncounted.add(a.uncountedResourceMs[r]);
        }
        Integrals integrals = new Integrals(a.last, a.actual, a.counted, a.entitled, a.demand, a.borrowedRaw, a.lent,
                a.borrowedFromSiblings, a.kLendSeen, a.kBorrowSeen, a.memActual, a.memCounted, a.memEntitled, a.phi,
                resourceMs, uncounted, a.round, a.roundEnd, a.arrived, a.arrivalAt);
        SiblingGroup g = n.childGroup;
        return new Node(n.path, n.parent == null ? -1 : n.parent.index, n.weight, n.discountOverride, n.pricePlan,
                n.share, n.eta, vector(n.held), vector(n.ownPending), vector(n.pending), n.pendingByApplication,
                n.runningTasks, new Rates(n.g, n.countedRate, n.d, n.e, n.b, n.u), integrals,
                new Pool(g.borrowedSum, g.unusedSum, g.last, g.kLend, g.kBorrow, g.updatesSinceRecompute),
                new QuantumSums(n.youngCount, n.youngSize, n.youngSizeTimesEnd, n.quantumMs, n.quantumSum,
                        n.quantumMembers, n.quantumDirty));
    }

    private static TenantNode node(Node s, List<TenantNode> before) {
        int index = before.size();
        if (s.parent() >= index || (s.parent() < 0) != (index == 0)) {
            throw new IllegalArgumentException("node " + index + " (" + s.path() + ") names parent " + s.parent());
        }
        TenantNode parent = s.parent() < 0 ? null : before.get(s.parent());
        TenantNode n = new TenantNode(index, s.path(), parent, s.weight(), s.discountOverride(), s.pricePlan(), 0);
        n.share = s.share();
        n.eta = s.eta();
        for (int r = 0; r < ResourceVector.TYPES; r++) {
            n.held[r] = s.held().get(r);
            n.ownPending[r] = s.ownPending().get(r);
            n.pending[r] = s.pending().get(r);
        }
        n.pendingByApplication.putAll(s.pendingByApplication());
        n.runningTasks = s.runningTasks();
        Rates rates = s.rates();
        n.g = rates.g();
        n.countedRate = rates.counted();
        n.d = rates.d();
        n.e = rates.e();
        n.b = rates.b();
        n.u = rates.u();
        n.acc = accumulators(s.integrals());
        Pool p = s.pool();
        SiblingGroup g = n.childGroup;
        g.borrowedSum = p.borrowedSum();
        g.unusedSum = p.unusedSum();
        g.last = p.last();
        g.kLend = p.kLend();
        g.kBorrow = p.kBorrow();
        g.updatesSinceRecompute = p.updatesSinceRecompute();
        QuantumSums q = s.quantum();
        n.youngCount = q.youngCount();
        n.youngSize = q.youngSize();
        n.youngSizeTimesEnd = q.youngSizeTimesEnd();
        n.quantumMs = q.quantumMs();
        n.quantumSum = q.quantumSum();
        n.quantumMembers = q.quantumMembers();
        n.quantumDirty = q.quantumDirty();
        return n;
    }

    private static Accumulators accumulators(Integrals s) {
        Accumulators a = new Accumulators(s.last());
        a.actual = s.actual();
        a.counted = s.counted();
        a.entitled = s.entitled();
        a.demand = s.demand();
        a.borrowedRaw = s.borrowedRaw();
        a.lent = s.lent();
        a.borrowedFromSiblings = s.borrowedFromSiblings();
        a.kLendSeen = s.kLendSeen();
        a.kBorrowSeen = s.kBorrowSeen();
        a.memActual = s.memActual();
        a.memCounted = s.memCounted();
        a.memEntitled = s.memEntitled();
        a.phi = s.phi();
        for (int r = 0; r < a.resourceMs.length; r++) {
            a.resourceMs[r] = Int128.of(s.resourceMs().get(r));
            a.uncountedResourceMs[r] = s.uncountedResourceMs().get(r);
        }
        a.round = s.round();
        a.roundEnd = s.roundEnd();
        a.arrived = s.arrived();
        a.arrivalAt = s.arrivalAt();
        return a;
    }

    private static Quanta quanta(TimeQuanta quanta, List<TenantNode> tree) {
        AdaptiveQuantum q = quanta.quantum;
        List<TenantApps> applications = new ArrayList<>(q.apps.size());
        for (TenantNode n : tree) {
            Map<String, AdaptiveQuantum.App> byId = q.apps.get(n);
            if (byId != null) {
                List<LedgerState.App> apps = new ArrayList<>(byId.size());
                for (AdaptiveQuantum.App app : new TreeMap<>(byId).values()) {
                    apps.add(new LedgerState.App(app.id, app.quantumMs, app.completed, app.completedMs, app.dirty));
                }
                applications.add(new TenantApps(n.index, apps));
            }
        }
        List<AppRef> awaiting = new ArrayList<>(q.dirtyApps.size());
        for (AdaptiveQuantum.App app : q.dirtyApps) {
            awaiting.add(new AppRef(app.tenant.index, app.id));
        }
        // nodes are marked dirty only within a refresh, which empties every level before it returns
        for (List<TenantNode> level : q.dirtyByDepth) {
            if (!level.isEmpty()) {
                throw new IllegalStateException("a snapshot taken in the middle of a quantum refresh");
            }
        }
        return new Quanta(quanta.nextRefresh, applications, awaiting, q.dirtyByDepth.size());
    }

    private static void restoreQuanta(Quanta s, TimeQuanta quanta, List<TenantNode> nodes) {
        quanta.nextRefresh = s.nextRefresh();
        AdaptiveQuantum q = quanta.quantum;
        for (TenantApps tenantApps : s.applications()) {
            TenantNode n = node(nodes, tenantApps.tenant());
            Map<String, AdaptiveQuantum.App> byId = new HashMap<>(2);
            for (LedgerState.App a : tenantApps.apps()) {
                AdaptiveQuantum.App app = new AdaptiveQuantum.App(n, a.id(), a.quantumMs());
                app.completed = a.completed();
                app.completedMs = a.completedMs();
                app.dirty = a.dirty();
                byId.put(app.id, app);
            }
            q.apps.put(n, byId);
            n.lastApps = byId;
        }
        for (AppRef ref : s.awaitingRefresh()) {
            q.dirtyApps.add(app(q, node(nodes, ref.tenant()), ref.id()));
        }
        for (int i = 0; i < s.depthLevels(); i++) {
            q.dirtyByDepth.add(new ArrayList<>());
        }
    }

    private static Tasks tasks(Map<String, RunningTask> tasks, QuantumExpiry young) {
        Map<RunningTask, Integer> ids = new IdentityHashMap<>();
        List<RunningTask> table = new ArrayList<>();
        Map<String, RunningTask> byId = new TreeMap<>(tasks);
        byId.values().forEach(t -> ids.computeIfAbsent(t, k -> register(table, k)));
        List<RunningTask> heap = new ArrayList<>(young.current);
        heap.forEach(t -> ids.computeIfAbsent(t, k -> register(table, k)));
        young.later.values().forEach(l -> l.forEach(t -> ids.computeIfAbsent(t, k -> register(table, k))));
        List<Task> rows = new ArrayList<>(table.size());
        for (RunningTask t : table) {
            rows.add(new Task(t.taskId, t.tenant.index, Optional.ofNullable(t.app).map(app -> app.id), t.resources,
                    t.start, t.size, t.quantumEnd, t.young));
        }
        List<Running> running = new ArrayList<>(byId.size());
        byId.forEach((id, t) -> running.add(new Running(id, ids.get(t))));
        List<Bucket> later = new ArrayList<>(young.later.size());
        young.later.forEach((bucket, list) -> later.add(new Bucket(bucket, list.stream().map(ids::get).toList())));
        return new Tasks(rows, running, young.currentBucket, heap.stream().map(ids::get).toList(), later);
    }

    private static Integer register(List<RunningTask> table, RunningTask t) {
        table.add(t);
        return table.size() - 1;
    }

    private static Map<String, RunningTask> restoreTasks(Tasks s, TimeQuanta quanta, List<TenantNode> nodes) {
        List<RunningTask> table = new ArrayList<>(s.table().size());
        for (Task row : s.table()) {
            TenantNode tenant = node(nodes, row.tenant());
            AdaptiveQuantum.App app = row.application().isPresent()
                    ? app(quanta.quantum, tenant, row.application().get())
                    : null;
            RunningTask t = new RunningTask(row.taskId(), tenant, app, row.resources(), row.start(), row.size(),
                    row.quantumEnd());
            t.young = row.young();
            table.add(t);
        }
        Map<String, RunningTask> tasks = new HashMap<>();
        for (Running r : s.running()) {
            tasks.put(r.taskId(), task(table, r.task()));
        }
        QuantumExpiry young = quanta.young;
        young.currentBucket = s.currentBucket();
        for (int i : s.heap()) {
            young.current.add(task(table, i));
        }
        for (Bucket b : s.later()) {
            ArrayList<RunningTask> list = new ArrayList<>(b.tasks().size());
            for (int i : b.tasks()) {
                list.add(task(table, i));
            }
            young.later.put(b.bucket(), list);
        }
        return tasks;
    }

    private static ResourceVector vector(long[] v) {
        return new ResourceVector(v[0], v[1], v[2]);
    }

    private static TenantNode node(List<TenantNode> nodes, int index) {
        if (index < 0 || index >= nodes.size()) {
            throw new IllegalArgumentException("the state names tenant node " + index + " of " + nodes.size());
        }
        return nodes.get(index);
    }

    private static RunningTask task(List<RunningTask> table, int index) {
        if (index < 0 || index >= table.size()) {
            throw new IllegalArgumentException("the state names task " + index + " of " + table.size());
        }
        return table.get(index);
    }

    private static AdaptiveQuantum.App app(AdaptiveQuantum q, TenantNode tenant, String id) {
        Map<String, AdaptiveQuantum.App> byId = q.apps.get(tenant);
        AdaptiveQuantum.App app = byId == null ? null : byId.get(id);
        if (app == null) {
            throw new IllegalArgumentException("the state names application '" + id + "' of " + tenant.path
                    + ", which it does not hold");
        }
        return app;
    }
}
