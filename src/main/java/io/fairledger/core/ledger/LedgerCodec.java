package io.fairledger.core.ledger;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;

/**
 * A {@link LedgerState} as bytes and back, for checkpoints ({@link io.fairledger.core.replay.Checkpoint}, which owns
 * the format version). The configuration is not written: the reader restores the state under the one the ledger was
 * built with ({@link ClusterLedger#restore}). Every component of the state is written, in the order the records
 * declare them; a list as its size and its elements, a map as its size and its entries in key order, an optional
 * value as a flag and the value, a resource vector as three longs, an exact resource integral as its high and low 64
 * bits. One exception of the format: the uncounted resource-milliseconds follow the exact ones without a count of
 * their own.
 *
 * <p>
 * The reads build each record from its components read in the order written: Java evaluates the arguments of a call
 * left to right (JLS 15.7.4).
 */
public final class LedgerCodec {

    /** The index of memory among the resource types ({@link ResourceVector#get}). */
    private static final int MEMORY = 1;

    private LedgerCodec() {
    }

    /** Writes {@code state}. */
    public static void write(LedgerState state, DataOutput out) throws IOException {
        out.writeLong(state.clock());
        writeVector(out, state.capacity());
        out.writeInt(state.outcomes().size());
        for (long o : state.outcomes()) {
            out.writeLong(o);
        }
        out.writeInt(state.nodes().size());
        for (Node n : state.nodes()) {
            writeNode(out, n);
        }
        writeQuanta(out, state.quanta());
        writeTasks(out, state.tasks());
    }

    /**
     * The state {@link #write} wrote.
     *
     * @throws IOException
     *             when the bytes end early or do not hold a ledger state
     */
    public static LedgerState read(DataInput in) throws IOException {
        return read(in, 1);
    }

    /**
     * The state a writer whose memory unit was {@code memoryScale} of today's wrote: every amount of memory it holds
     * (resource vectors, memory's resource integrals) is multiplied by {@code memoryScale}. The only change of unit a
     * checkpoint has seen: format 2 kept memory in whole MB, so its reader passes {@link io.fairledger.core.model.MemoryUnits#PER_MB}.
     *
     * @throws IOException
     *             when the bytes end early or do not hold a ledger state
     */
    public static LedgerState read(DataInput in, long memoryScale) throws IOException {
        try {
            return new LedgerState(in.readLong(), readVector(in, memoryScale), readLongs(in),
                    readList(in, i -> readNode(i, memoryScale)), readQuanta(in), readTasks(in, memoryScale));
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    private static void writeNode(DataOutput out, Node n) throws IOException {
        writePath(out, n.path());
        out.writeInt(n.parent());
        out.writeDouble(n.weight());
        out.writeDouble(n.discountOverride());
        writeString(out, n.pricePlan());
        out.writeDouble(n.share());
        out.writeDouble(n.eta());
        writeVector(out, n.held());
        writeVector(out, n.ownPending());
        writeVector(out, n.pending());
        out.writeInt(n.pendingByApplication().size());
        for (Map.Entry<String, ResourceVector> e : n.pendingByApplication().entrySet()) {
            writeString(out, e.getKey());
            writeVector(out, e.getValue());
        }
        out.writeInt(n.runningTasks());
        Rates r = n.rates();
        for (double rate : new double[]{r.g(), r.counted(), r.d(), r.e(), r.b(), r.u()}) {
            out.writeDouble(rate);
        }
        writeIntegrals(out, n.integrals());
        Pool p = n.pool();
        out.writeDouble(p.borrowedSum());
        out.writeDouble(p.unusedSum());
        out.writeLong(p.last());
        out.writeDouble(p.kLend());
        out.writeDouble(p.kBorrow());
        out.writeInt(p.updatesSinceRecompute());
        QuantumSums q = n.quantum();
        out.writeInt(q.youngCount());
        out.writeDouble(q.youngSize());
        out.writeDouble(q.youngSizeTimesEnd());
        out.writeDouble(q.quantumMs());
        out.writeDouble(q.quantumSum());
        out.writeInt(q.quantumMembers());
        out.writeBoolean(q.quantumDirty());
    }

    private static Node readNode(DataInput in, long memoryScale) throws IOException {
        return new Node(readPath(in), in.readInt(), in.readDouble(), in.readDouble(), readString(in), in.readDouble(),
                in.readDouble(), readVector(in, memoryScale), readVector(in, memoryScale), readVector(in, memoryScale),
                readPendingByApplication(in, memoryScale),
                in.readInt(),
                new Rates(in.readDouble(), in.readDouble(), in.readDouble(), in.readDouble(), in.readDouble(),
                        in.readDouble()),
                readIntegrals(in, memoryScale),
                new Pool(in.readDouble(), in.readDouble(), in.readLong(), in.readDouble(), in.readDouble(),
                        in.readInt()),
                new QuantumSums(in.readInt(), in.readDouble(), in.readDouble(), in.readDouble(), in.readDouble(),
                        in.readInt(), in.readBoolean()));
    }

    private static Map<String, ResourceVector> readPendingByApplication(DataInput in, long memoryScale)
            throws IOException {
        int count = in.readInt();
        Map<String, ResourceVector> byApp = new TreeMap<>();
        for (int i = 0; i < count; i++) {
            byApp.put(readString(in), readVector(in, memoryScale));
        }
        return byApp;
    }

    private static void writeIntegrals(DataOutput out, Integrals a) throws IOException {
        out.writeLong(a.last());
        for (double v : new double[]{a.actual(), a.counted(), a.entitled(), a.demand(), a.borrowedRaw(), a.lent(),
                a.borrowedFromSiblings(), a.kLendSeen(), a.kBorrowSeen(), a.memActual(), a.memCounted(),
                a.memEntitled(), a.phi()}) {
            out.writeDouble(v);
        }
        out.writeInt(a.resourceMs().size());
        for (BigInteger v : a.resourceMs()) {
            out.writeLong(Int128.high(v));
            out.writeLong(Int128.low(v));
        }
        for (double v : a.uncountedResourceMs()) {
            out.writeDouble(v);
        }
        out.writeLong(a.round());
        out.writeLong(a.roundEnd());
        out.writeBoolean(a.arrived());
        out.writeLong(a.arrivalAt());
    }

    private static Integrals readIntegrals(DataInput in, long memoryScale) throws IOException {
        long last = in.readLong();
        double[] v = new double[13];
        for (int i = 0; i < v.length; i++) {
            v[i] = in.readDouble();
        }
        int types = in.readInt();
        if (types != ResourceVector.TYPES) {
            throw new IOException("checkpoint integrates " + types + " resource types, this ledger "
                    + ResourceVector.TYPES);
        }
        List<BigInteger> resourceMs = new ArrayList<>(types);
        for (int r = 0; r < types; r++) {
            resourceMs.add(Int128.value(in.readLong(), in.readLong()));
        }
        resourceMs.set(MEMORY, resourceMs.get(MEMORY).multiply(BigInteger.valueOf(memoryScale)));
        List<Double> uncounted = new ArrayList<>(types);
        for (int r = 0; r < types; r++) {
            uncounted.add(in.readDouble());
        }
        uncounted.set(MEMORY, uncounted.get(MEMORY) * memoryScale);
        return new Integrals(last, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12],
                resourceMs, uncounted, in.readLong(), in.readLong(), in.readBoolean(), in.readLong());
    }

    private static void writeQuanta(DataOutput out, Quanta q) throws IOException {
        out.writeLong(q.nextRefresh());
        out.writeInt(q.applications().size());
        for (TenantApps t : q.applications()) {
            out.writeInt(t.tenant());
            out.writeInt(t.apps().size());
            for (LedgerState.App app : t.apps()) {
                writeString(out, app.id());
                out.writeDouble(app.quantumMs());
                out.writeLong(app.completed());
                out.writeDouble(app.completedMs());
                out.writeBoolean(app.dirty());
            }
        }
        out.writeInt(q.awaitingRefresh().size());
        for (AppRef app : q.awaitingRefresh()) {
            out.writeInt(app.tenant());
            writeString(out, app.id());
        }
        out.writeInt(q.depthLevels());
    }

    private static Quanta readQuanta(DataInput in) throws IOException {
        return new Quanta(in.readLong(), readList(in, i -> new TenantApps(i.readInt(), readList(i,
                a -> new LedgerState.App(readString(a), a.readDouble(), a.readLong(), a.readDouble(),
                        a.readBoolean())))),
                readList(in, i -> new AppRef(i.readInt(), readString(i))), in.readInt());
    }

    private static void writeTasks(DataOutput out, Tasks tasks) throws IOException {
        out.writeInt(tasks.table().size());
        for (Task t : tasks.table()) {
            writeString(out, t.taskId());
            out.writeInt(t.tenant());
            out.writeBoolean(t.application().isPresent());
            if (t.application().isPresent()) {
                writeString(out, t.application().get());
            }
            writeVector(out, t.resources());
            out.writeLong(t.start());
            out.writeDouble(t.size());
            out.writeLong(t.quantumEnd());
            out.writeBoolean(t.young());
        }
        out.writeInt(tasks.running().size());
        for (Running r : tasks.running()) {
            writeString(out, r.taskId());
            out.writeInt(r.task());
        }
        out.writeLong(tasks.currentBucket());
        writeInts(out, tasks.heap());
        out.writeInt(tasks.later().size());
        for (Bucket b : tasks.later()) {
            out.writeLong(b.bucket());
            writeInts(out, b.tasks());
        }
    }

    private static Tasks readTasks(DataInput in, long memoryScale) throws IOException {
        return new Tasks(readList(in, i -> readTask(i, memoryScale)), readList(in, i -> new Running(readString(i),
                i.readInt())), in.readLong(), readList(in, DataInput::readInt),
                readList(in, i -> new Bucket(i.readLong(), readList(i, DataInput::readInt))));
    }

    private static Task readTask(DataInput in, long memoryScale) throws IOException {
        return new Task(readString(in), in.readInt(), in.readBoolean() ? Optional.of(readString(in)) : Optional.empty(),
                readVector(in, memoryScale), in.readLong(), in.readDouble(), in.readLong(), in.readBoolean());
    }

    /** Reads one element of a list. */
    @FunctionalInterface
    private interface Reader<T> {
        T read(DataInput in) throws IOException;
    }

    /** A list as its size and its elements. */
    private static <T> List<T> readList(DataInput in, Reader<T> element) throws IOException {
        int count = in.readInt();
        if (count < 0) {
            throw new IOException("checkpoint holds a list of " + count + " elements");
        }
        List<T> out = new ArrayList<>(Math.min(count, 1 << 16));
        for (int i = 0; i < count; i++) {
            out.add(element.read(in));
        }
        return out;
    }

    private static List<Long> readLongs(DataInput in) throws IOException {
        return readList(in, DataInput::readLong);
    }

    private static void writeInts(DataOutput out, List<Integer> values) throws IOException {
        out.writeInt(values.size());
        for (int v : values) {
            out.writeInt(v);
        }
    }

    /** A resource vector as three longs. */
    public static void writeVector(DataOutput out, ResourceVector v) throws IOException {
        out.writeLong(v.millicores());
        out.writeLong(v.memoryMilliMb());
        out.writeLong(v.gpus());
    }

    /** A resource vector {@link #writeVector} wrote. */
    public static ResourceVector readVector(DataInput in) throws IOException {
        return readVector(in, 1);
    }

    /** A resource vector written with memory in units {@code memoryScale} times today's (see {@link #read}). */
    public static ResourceVector readVector(DataInput in, long memoryScale) throws IOException {
        try {
            return new ResourceVector(in.readLong(), Math.multiplyExact(in.readLong(), memoryScale), in.readLong());
        } catch (ArithmeticException e) {
            throw new IOException("checkpoint holds an amount of memory beyond the ledger's range", e);
        }
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
