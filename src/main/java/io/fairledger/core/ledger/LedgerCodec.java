package io.fairledger.core.ledger;

import io.fairledger.core.model.ClusterConfig;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The whole state of a {@link ClusterLedger} as bytes and back, for checkpoints
 * ({@link io.fairledger.core.replay.Checkpoint}, which owns the format version). The configuration is not written: the
 * reader passes the one the ledger was built with. Everything else is: the clock, capacity and outcome counts; every
 * tree node in creation order with its weight, shares, holdings, per-application demand, rates, exact and floating
 * integrals, lending pool and quantum sums; the adaptive quanta of every application and the ones awaiting a refresh;
 * the running tasks and the quantum calendar, with the identity of tasks that sit in both. Collections whose iteration
 * order can change a result (the calendar's buckets and heap, the applications awaiting a refresh) are written in their
 * order; hash maps that are only looked up are written sorted by key, so equal states give equal bytes.
 */
public final class LedgerCodec {

    private LedgerCodec() {
    }

    /** Writes every mutable part of {@code ledger}; reads nothing from it that would move it. */
    public static void write(ClusterLedger ledger, DataOutput out) throws IOException {
        out.writeLong(ledger.clock());
        writeVector(out, ledger.capacity());
        out.writeInt(ledger.outcomes.length);
        for (long o : ledger.outcomes) {
            out.writeLong(o);
        }
        List<TenantNode> nodes = ledger.tree.ordered();
        out.writeInt(nodes.size());
        for (TenantNode n : nodes) {
            writeNode(out, n);
        }
        TimeQuanta quanta = ledger.quanta;
        out.writeLong(quanta.nextRefresh);
        writeQuantum(out, quanta.quantum, nodes);
        writeTasks(out, ledger.tasks, quanta.young);
    }

    /** The ledger {@link #write} wrote, under the configuration it was built with. */
    public static ClusterLedger read(ClusterConfig config, DataInput in) throws IOException {
        long clock = in.readLong();
        ResourceVector capacity = readVector(in);
        int outcomeCount = in.readInt();
        long[] outcomes = new long[Outcome.values().length];
        if (outcomeCount != outcomes.length) {
            throw new IOException("checkpoint counts " + outcomeCount + " event outcomes, this ledger knows "
                    + outcomes.length);
        }
        for (int i = 0; i < outcomeCount; i++) {
            outcomes[i] = in.readLong();
        }
        int count = in.readInt();
        List<TenantNode> nodes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            nodes.add(readNode(in, i, nodes));
        }
        TimeQuanta quanta = new TimeQuanta(config);
        quanta.nextRefresh = in.readLong();
        readQuantum(in, quanta.quantum, nodes);
        Map<String, RunningTask> tasks = readTasks(in, quanta, nodes);
        return new ClusterLedger(config, clock, capacity, outcomes, nodes, quanta, tasks);
    }

    private static void writeNode(DataOutput out, TenantNode n) throws IOException {
        writePath(out, n.path);
        out.writeInt(n.parent == null ? -1 : n.parent.index);
        out.writeDouble(n.weight);
        out.writeDouble(n.discountOverride);
        writeString(out, n.pricePlan);
        out.writeDouble(n.share);
        out.writeDouble(n.eta);
        writeLongs(out, n.held);
        writeLongs(out, n.ownPending);
        writeLongs(out, n.pending);
        Map<String, ResourceVector> byApp = new TreeMap<>(n.pendingByApplication);
        out.writeInt(byApp.size());
        for (Map.Entry<String, ResourceVector> e : byApp.entrySet()) {
            writeString(out, e.getKey());
            writeVector(out, e.getValue());
        }
        out.writeInt(n.runningTasks);
        for (double rate : new double[]{n.g, n.countedRate, n.d, n.e, n.b, n.u}) {
            out.writeDouble(rate);
        }
        writeAccumulators(out, n.acc);
        SiblingGroup g = n.childGroup;
        out.writeDouble(g.borrowedSum);
        out.writeDouble(g.unusedSum);
        out.writeLong(g.last);
        out.writeDouble(g.kLend);
        out.writeDouble(g.kBorrow);
        out.writeInt(g.updatesSinceRecompute);
        out.writeInt(n.youngCount);
        out.writeDouble(n.youngSize);
        out.writeDouble(n.youngSizeTimesEnd);
        out.writeDouble(n.quantumMs);
        out.writeDouble(n.quantumSum);
        out.writeInt(n.quantumMembers);
        out.writeBoolean(n.quantumDirty);
    }

    private static TenantNode readNode(DataInput in, int index, List<TenantNode> before) throws IOException {
        TenantPath path = readPath(in);
        int parentIndex = in.readInt();
        if (parentIndex >= index || (parentIndex < 0) != (index == 0)) {
            throw new IOException("checkpoint node " + index + " (" + path + ") names parent " + parentIndex);
        }
        TenantNode parent = parentIndex < 0 ? null : before.get(parentIndex);
        double weight = in.readDouble();
        double discount = in.readDouble();
        String plan = readString(in);
        TenantNode n = new TenantNode(index, path, parent, weight, discount, plan, 0);
        n.share = in.readDouble();
        n.eta = in.readDouble();
        readLongs(in, n.held);
        readLongs(in, n.ownPending);
        readLongs(in, n.pending);
        int apps = in.readInt();
        for (int i = 0; i < apps; i++) {
            n.pendingByApplication.put(readString(in), readVector(in));
        }
        n.runningTasks = in.readInt();
        n.g = in.readDouble();
        n.countedRate = in.readDouble();
        n.d = in.readDouble();
        n.e = in.readDouble();
        n.b = in.readDouble();
        n.u = in.readDouble();
        n.acc = readAccumulators(in);
        SiblingGroup g = n.childGroup;
        g.borrowedSum = in.readDouble();
        g.unusedSum = in.readDouble();
        g.last = in.readLong();
        g.kLend = in.readDouble();
        g.kBorrow = in.readDouble();
        g.updatesSinceRecompute = in.readInt();
        n.youngCount = in.readInt();
        n.youngSize = in.readDouble();
        n.youngSizeTimesEnd = in.readDouble();
        n.quantumMs = in.readDouble();
        n.quantumSum = in.readDouble();
        n.quantumMembers = in.readInt();
        n.quantumDirty = in.readBoolean();
        return n;
    }

    private static void writeAccumulators(DataOutput out, Accumulators a) throws IOException {
        out.writeLong(a.last);
        for (double v : new double[]{a.actual, a.counted, a.entitled, a.demand, a.borrowedRaw, a.lent,
                a.borrowedFromSiblings, a.kLendSeen, a.kBorrowSeen, a.memActual, a.memCounted, a.memEntitled,
                a.phi}) {
            out.writeDouble(v);
        }
        out.writeInt(a.resourceMs.length);
        for (Int128 r : a.resourceMs) {
            out.writeLong(r.hi);
            out.writeLong(r.lo);
        }
        for (double v : a.uncountedResourceMs) {
            out.writeDouble(v);
        }
        out.writeLong(a.round);
        out.writeLong(a.roundEnd);
        out.writeBoolean(a.arrived);
        out.writeLong(a.arrivalAt);
    }

    private static Accumulators readAccumulators(DataInput in) throws IOException {
        Accumulators a = new Accumulators(in.readLong());
        a.actual = in.readDouble();
        a.counted = in.readDouble();
        a.entitled = in.readDouble();
        a.demand = in.readDouble();
        a.borrowedRaw = in.readDouble();
        a.lent = in.readDouble();
        a.borrowedFromSiblings = in.readDouble();
        a.kLendSeen = in.readDouble();
        a.kBorrowSeen = in.readDouble();
        a.memActual = in.readDouble();
        a.memCounted = in.readDouble();
        a.memEntitled = in.readDouble();
        a.phi = in.readDouble();
        int types = in.readInt();
        if (types != a.resourceMs.length) {
            throw new IOException("checkpoint integrates " + types + " resource types, this ledger "
                    + a.resourceMs.length);
        }
        for (Int128 r : a.resourceMs) {
            r.hi = in.readLong();
            r.lo = in.readLong();
        }
        for (int r = 0; r < a.uncountedResourceMs.length; r++) {
            a.uncountedResourceMs[r] = in.readDouble();
        }
        a.round = in.readLong();
        a.roundEnd = in.readLong();
        a.arrived = in.readBoolean();
        a.arrivalAt = in.readLong();
        return a;
    }

    /** The applications of every tenant (tenants in tree order, applications by id), then those awaiting a refresh. */
    private static void writeQuantum(DataOutput out, AdaptiveQuantum q, List<TenantNode> nodes) throws IOException {
        out.writeInt(q.apps.size());
        for (TenantNode n : nodes) {
            Map<String, AdaptiveQuantum.App> byId = q.apps.get(n);
            if (byId == null) {
                continue;
            }
            out.writeInt(n.index);
            out.writeInt(byId.size());
            for (AdaptiveQuantum.App app : new TreeMap<>(byId).values()) {
                writeString(out, app.id);
                out.writeDouble(app.quantumMs);
                out.writeLong(app.completed);
                out.writeDouble(app.completedMs);
                out.writeBoolean(app.dirty);
            }
        }
        out.writeInt(q.dirtyApps.size());
        for (AdaptiveQuantum.App app : q.dirtyApps) {
            out.writeInt(app.tenant.index);
            writeString(out, app.id);
        }
        // nodes are marked dirty only within a refresh, which empties every level before it returns
        out.writeInt(q.dirtyByDepth.size());
        for (List<TenantNode> level : q.dirtyByDepth) {
            if (!level.isEmpty()) {
                throw new IllegalStateException("a checkpoint taken in the middle of a quantum refresh");
            }
        }
    }

    private static void readQuantum(DataInput in, AdaptiveQuantum q, List<TenantNode> nodes) throws IOException {
        int tenants = in.readInt();
        for (int t = 0; t < tenants; t++) {
            TenantNode n = node(nodes, in.readInt());
            int count = in.readInt();
            Map<String, AdaptiveQuantum.App> byId = new HashMap<>(2);
            for (int i = 0; i < count; i++) {
                AdaptiveQuantum.App app = new AdaptiveQuantum.App(n, readString(in), in.readDouble());
                app.completed = in.readLong();
                app.completedMs = in.readDouble();
                app.dirty = in.readBoolean();
                byId.put(app.id, app);
            }
            q.apps.put(n, byId);
            n.lastApps = byId;
        }
        int dirty = in.readInt();
        for (int i = 0; i < dirty; i++) {
            q.dirtyApps.add(app(q, node(nodes, in.readInt()), readString(in)));
        }
        int levels = in.readInt();
        for (int i = 0; i < levels; i++) {
            q.dirtyByDepth.add(new ArrayList<>());
        }
    }

    /**
     * The running tasks by id, then the quantum calendar: the current bucket's heap in its array order (re-adding a
     * heap's array in order rebuilds the same array) and the later buckets' lists in order. A task finished while its
     * quantum runs stays in the calendar only, so tasks are written once in a table and referred to by position.
     */
    private static void writeTasks(DataOutput out, Map<String, RunningTask> tasks, QuantumExpiry young)
            throws IOException {
        Map<RunningTask, Integer> ids = new IdentityHashMap<>();
        List<RunningTask> table = new ArrayList<>();
        for (RunningTask t : new TreeMap<>(tasks).values()) {
            ids.computeIfAbsent(t, k -> register(table, k));
        }
        List<RunningTask> heap = new ArrayList<>(young.current);
        heap.forEach(t -> ids.computeIfAbsent(t, k -> register(table, k)));
        young.later.values().forEach(l -> l.forEach(t -> ids.computeIfAbsent(t, k -> register(table, k))));
        out.writeInt(table.size());
        for (RunningTask t : table) {
            writeString(out, t.taskId);
            out.writeInt(t.tenant.index);
            out.writeBoolean(t.app != null);
            if (t.app != null) {
                writeString(out, t.app.id);
            }
            writeVector(out, t.resources);
            out.writeLong(t.start);
            out.writeDouble(t.size);
            out.writeLong(t.quantumEnd);
            out.writeBoolean(t.young);
        }
        out.writeInt(tasks.size());
        for (String id : new TreeMap<>(tasks).keySet()) {
            writeString(out, id);
            out.writeInt(ids.get(tasks.get(id)));
        }
        out.writeLong(young.currentBucket);
        out.writeInt(heap.size());
        for (RunningTask t : heap) {
            out.writeInt(ids.get(t));
        }
        out.writeInt(young.later.size());
        for (Map.Entry<Long, ArrayList<RunningTask>> bucket : young.later.entrySet()) {
            out.writeLong(bucket.getKey());
            out.writeInt(bucket.getValue().size());
            for (RunningTask t : bucket.getValue()) {
                out.writeInt(ids.get(t));
            }
        }
    }

    private static Integer register(List<RunningTask> table, RunningTask t) {
        table.add(t);
        return table.size() - 1;
    }

    private static Map<String, RunningTask> readTasks(DataInput in, TimeQuanta quanta, List<TenantNode> nodes)
            throws IOException {
        int count = in.readInt();
        List<RunningTask> table = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String taskId = readString(in);
            TenantNode tenant = node(nodes, in.readInt());
            AdaptiveQuantum.App app = in.readBoolean() ? app(quanta.quantum, tenant, readString(in)) : null;
            RunningTask t = new RunningTask(taskId, tenant, app, readVector(in), in.readLong(), in.readDouble(),
                    in.readLong());
            t.young = in.readBoolean();
            table.add(t);
        }
        int running = in.readInt();
        Map<String, RunningTask> tasks = new HashMap<>();
        for (int i = 0; i < running; i++) {
            tasks.put(readString(in), task(table, in.readInt()));
        }
        QuantumExpiry young = quanta.young;
        young.currentBucket = in.readLong();
        int heap = in.readInt();
        for (int i = 0; i < heap; i++) {
            young.current.add(task(table, in.readInt()));
        }
        int buckets = in.readInt();
        for (int b = 0; b < buckets; b++) {
            long key = in.readLong();
            int size = in.readInt();
            ArrayList<RunningTask> list = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                list.add(task(table, in.readInt()));
            }
            young.later.put(key, list);
        }
        return tasks;
    }

    private static TenantNode node(List<TenantNode> nodes, int index) throws IOException {
        if (index < 0 || index >= nodes.size()) {
            throw new IOException("checkpoint names tenant node " + index + " of " + nodes.size());
        }
        return nodes.get(index);
    }

    private static RunningTask task(List<RunningTask> table, int index) throws IOException {
        if (index < 0 || index >= table.size()) {
            throw new IOException("checkpoint names task " + index + " of " + table.size());
        }
        return table.get(index);
    }

    private static AdaptiveQuantum.App app(AdaptiveQuantum q, TenantNode tenant, String id) throws IOException {
        Map<String, AdaptiveQuantum.App> byId = q.apps.get(tenant);
        AdaptiveQuantum.App app = byId == null ? null : byId.get(id);
        if (app == null) {
            throw new IOException("checkpoint names application '" + id + "' of " + tenant.path
                    + ", which it does not hold");
        }
        return app;
    }

    private static void writeLongs(DataOutput out, long[] values) throws IOException {
        for (long v : values) {
            out.writeLong(v);
        }
    }

    private static void readLongs(DataInput in, long[] into) throws IOException {
        for (int i = 0; i < into.length; i++) {
            into[i] = in.readLong();
        }
    }

    /** A resource vector as three longs. */
    public static void writeVector(DataOutput out, ResourceVector v) throws IOException {
        out.writeLong(v.millicores());
        out.writeLong(v.memoryMb());
        out.writeLong(v.gpus());
    }

    /** A resource vector {@link #writeVector} wrote. */
    public static ResourceVector readVector(DataInput in) throws IOException {
        return new ResourceVector(in.readLong(), in.readLong(), in.readLong());
    }

    /** A tenant path as its segments (its text form does not round-trip segments holding a separator). */
    public static void writePath(DataOutput out, TenantPath path) throws IOException {
        out.writeInt(path.segments().size());
        for (String segment : path.segments()) {
            writeString(out, segment);
        }
    }

    /** A tenant path {@link #writePath} wrote. */
    public static TenantPath readPath(DataInput in) throws IOException {
        int depth = in.readInt();
        if (depth < 0 || depth > 1 << 16) {
            throw new IOException("checkpoint holds a tenant path of depth " + depth);
        }
        List<String> segments = new ArrayList<>(depth);
        for (int i = 0; i < depth; i++) {
            segments.add(readString(in));
        }
        return new TenantPath(segments);
    }

    /** A string of any length as its UTF-8 length and bytes ({@link DataOutput#writeUTF} stops at 64 KiB). */
    public static void writeString(DataOutput out, String s) throws IOException {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    /** A string {@link #writeString} wrote. */
    public static String readString(DataInput in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > 1 << 24) {
            throw new IOException("checkpoint holds a string of " + length + " bytes");
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
