package io.fairledger.core.replay;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.fairledger.core.chargeback.Chargeback;
import io.fairledger.core.chargeback.ChargebackConfig;
import io.fairledger.core.chargeback.Period;
import io.fairledger.core.chargeback.Statement;
import io.fairledger.core.fairness.FairnessReport;
import io.fairledger.core.ledger.ClusterLedger;
import io.fairledger.core.ledger.LedgerCodec;
import io.fairledger.core.ledger.LedgerState;
import io.fairledger.core.model.ClusterConfig;
import io.fairledger.core.model.MemoryMode;
import io.fairledger.core.model.MemoryUnits;
import io.fairledger.core.model.PricePlan;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantConfig;
import io.fairledger.core.model.UsageMeasure;

/**
 * A replay's whole state as compact bytes, so that "restore the checkpoint, then apply the events after it" gives
 * exactly the state of applying every event (docs/architecture.md, "Checkpoints"). Plain binary, no framework:
 *
 * <pre>
 *   int    magic "FLCP"
 *   byte   format version ({@link #FORMAT})
 *   32 B   SHA-256 of the replay configuration ({@link #settingsVersion}), so state is never read under other settings
 *   period the open period
 *   long   how many periods the replay has closed (format 3 on)
 *   list   the statements and fairness of the closed periods the replay holds: every one in {@code account} and the
 *          simulator, only those the period closer has not stored yet in the server ({@link Replay#release}); in
 *          format 2 every closed period's, all read and held until the server's next release drops the stored ones
 *   ledger every accumulator, open task and quantum of the ledger: its {@link io.fairledger.core.ledger.LedgerState}
 *          ({@link LedgerCodec})
 * </pre>
 *
 * A reader refuses an unknown magic or format version and a configuration other than the one the state was made
 * under, each with a message saying so; a change of this format (or of the ledger's state) takes a new version.
 */
public final class Checkpoint {

    /** The format this class writes. */
    public static final int FORMAT = 3;
    /** The format before, read too: every closed period's statement, memory in whole MB (docs/domain.md section 3). */
    private static final int FORMAT_2 = 2;

    private static final int MAGIC = 0x464C4350;
    private static final int DIGEST_BYTES = 32;

    private Checkpoint() {
    }

    /** {@code replay}'s state as bytes; reads nothing that would move it. */
    public static byte[] toBytes(Replay replay) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(1 << 14);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            write(replay, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** The replay {@link #toBytes} wrote, under {@code config}. */
    public static Replay fromBytes(ReplayConfig config, byte[] bytes) {
        try {
            return read(config, new DataInputStream(new ByteArrayInputStream(bytes)));
        } catch (IOException e) {
            throw new IllegalArgumentException("checkpoint is unreadable: " + e.getMessage(), e);
        }
    }

    /** Writes {@code replay}'s state. */
    public static void write(Replay replay, DataOutput out) throws IOException {
        out.writeInt(MAGIC);
        out.writeByte(FORMAT);
        out.write(digest(replay.config().upTo(replay.ledger().clock())));
        ClosedPeriodCodec.writePeriod(out, replay.openPeriod());
        List<Statement> statements = replay.closedStatements();
        List<FairnessReport> fairness = replay.closedFairness();
        out.writeLong(replay.closedPeriods());
        out.writeInt(statements.size());
        for (int i = 0; i < statements.size(); i++) {
            ClosedPeriodCodec.writeStatement(out, statements.get(i));
            ClosedPeriodCodec.writeFairness(out, fairness.get(i));
        }
        LedgerCodec.write(replay.ledger().snapshot(), out);
    }

    /**
     * The replay {@link #write} wrote (or format 2 did), continuing under {@code config}.
     *
     * @throws IllegalArgumentException when the bytes are not a checkpoint, are of another format version, or were
     *                                  made under another configuration
     */
    public static Replay read(ReplayConfig config, DataInput in) throws IOException {
        Header header = Header.read(in);
        int count = header.statements();
        List<Statement> statements = new ArrayList<>(count);
        List<FairnessReport> fairness = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Statement s = ClosedPeriodCodec.readStatement(in);
            // a short period's proration is its schedule's, which the digest above checked: not stored
            statements.add(new Statement(s.clusterId(), s.period(), s.model(), s.lines(),
                    Chargeback.prorated(s.model(), config.periods().proration(s.period()))));
            fairness.add(ClosedPeriodCodec.readFairness(in));
        }
        long memoryScale = header.format() == FORMAT_2 ? MemoryUnits.PER_MB : 1;
        LedgerState state = LedgerCodec.read(in, memoryScale);
        ReplayConfig known = config.upTo(state.clock());
        if (!MessageDigest.isEqual(header.digest(), digest(known))) {
            throw new IllegalArgumentException("ledger checkpoint was made under settings version "
                    + HexFormat.of().formatHex(header.digest()) + ", not the live " + settingsVersion(known));
        }
        ClusterLedger ledger = ClusterLedger.restore(config.clusterAt(state.clock()), state);
        long closedPeriods = header.closedPeriods() < 0 ? count : header.closedPeriods();
        return new Replay(config, ledger, closedPeriods, statements, fairness, header.open());
    }

    /**
     * How many closed periods' statements the checkpoint {@code bytes} carries, read from its header alone: those its
     * replay closed and had not released ({@link Replay#release}).
     */
    public static int statementsCarried(byte[] bytes) {
        try {
            return Header.read(new DataInputStream(new ByteArrayInputStream(bytes))).statements();
        } catch (IOException e) {
            throw new IllegalArgumentException("checkpoint is unreadable: " + e.getMessage(), e);
        }
    }

    /**
     * What a checkpoint starts with: its format, the digest of its settings, the open period, the periods closed
     * (-1 in format {@value #FORMAT_2}, which did not count them) and how many statements follow.
     */
    private record Header(int format, byte[] digest, Period open, long closedPeriods, int statements) {

        static Header read(DataInput in) throws IOException {
            int magic = in.readInt();
            if (magic != MAGIC) {
                throw new IllegalArgumentException("not a ledger checkpoint (magic " + Integer.toHexString(magic)
                        + ")");
            }
            int format = in.readUnsignedByte();
            if (format != FORMAT && format != FORMAT_2) {
                throw new IllegalArgumentException("ledger checkpoint format version " + format + " is unknown: this "
                        + "server reads versions " + FORMAT_2 + " (its memory converted to thousandths of a MB) and "
                        + FORMAT + " only; replay from the facts instead");
            }
            byte[] digest = new byte[DIGEST_BYTES];
            in.readFully(digest);
            Period open = ClosedPeriodCodec.readPeriod(in);
            long closedPeriods = format == FORMAT_2 ? -1 : in.readLong();
            return new Header(format, digest, open, closedPeriods, in.readInt());
        }
    }

    /**
     * The version of the settings a replay runs under: the SHA-256 (hex) of everything in {@code config} but its
     * {@code until}. Two configurations with the same version give the same replay of the same events.
     */
    public static String settingsVersion(ReplayConfig config) {
        return HexFormat.of().formatHex(digest(config));
    }

    /**
     * The version a checkpoint of a replay under {@code config} at {@code atMs} (its ledger's clock) is made under:
     * that of the settings known at {@code atMs} ({@link ReplayConfig#upTo}). A change from a later instant leaves it
     * as it was, so a checkpoint from before a change stays usable after it.
     */
    public static String settingsVersion(ReplayConfig config, long atMs) {
        return settingsVersion(config.upTo(atMs));
    }

    private static byte[] digest(ReplayConfig config) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            writeConfig(out, config);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes.toByteArray());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    /**
     * The capacity as the settings version has always encoded it, so that settings made when memory was counted in
     * whole MB keep their version: memory in whole MB; a capacity with a fraction of a MB (which the settings do not
     * allow, but a configuration built in code may have) as -1 and its thousandths, which no whole amount begins with.
     */
    private static void writeCapacity(DataOutput out, ResourceVector capacity) throws IOException {
        out.writeLong(capacity.millicores());
        long memory = capacity.memoryMilliMb();
        if (memory % MemoryUnits.PER_MB == 0) {
            out.writeLong(memory / MemoryUnits.PER_MB);
        } else {
            out.writeLong(-1);
            out.writeLong(memory);
        }
        out.writeLong(capacity.gpus());
    }

    /**
     * A canonical encoding of {@code config} (price plans by name), for {@link #settingsVersion}: one without changes
     * as it always was, so the versions of settings never changed stay what they were.
     */
    private static void writeConfig(DataOutput out, ReplayConfig config) throws IOException {
        writeCluster(out, config.cluster());
        writeSchedule(out, config.periods());
        writeChargeback(out, config.chargeback());
        for (ReplayConfig.Change change : config.changes()) {
            out.writeLong(change.at());
            writeCluster(out, change.cluster());
            writeChargeback(out, change.chargeback());
        }
    }

    private static void writeCluster(DataOutput out, ClusterConfig c) throws IOException {
        LedgerCodec.writeString(out, c.clusterId());
        out.writeLong(c.registeredAt());
        writeCapacity(out, c.capacity());
        out.writeInt(c.tenants().size());
        for (TenantConfig t : c.tenants()) {
            LedgerCodec.writePath(out, t.path());
            out.writeDouble(t.weight());
            out.writeDouble(t.discountOverride().orElse(Double.NaN));
            LedgerCodec.writeString(out, t.pricePlan());
        }
        out.writeDouble(c.discountRate());
        MemoryMode m = c.memory();
        if (m instanceof MemoryMode.Rounds r) {
            out.writeByte(1);
            out.writeLong(r.lengthMs());
            out.writeLong(r.originMs());
        } else if (m instanceof MemoryMode.Decay d) {
            out.writeByte(2);
            out.writeLong(d.halfLifeMs());
        } else {
            out.writeByte(0);
        }
        LedgerCodec.writeString(out, c.par().name());
        UsageMeasure measure = c.measure();
        if (measure instanceof UsageMeasure.WeightedSum w) {
            out.writeByte(1);
            out.writeDouble(w.vcoreWeight());
            out.writeDouble(w.memoryWeight());
            out.writeDouble(w.gpuWeight());
        } else {
            out.writeByte(0);
        }
        out.writeLong(c.rootQuantumMs());
        out.writeLong(c.quantumRefreshMs());
    }

    private static void writeChargeback(DataOutput out, ChargebackConfig cb) throws IOException {
        LedgerCodec.writeString(out, cb.model().name());
        Map<String, PricePlan> plans = new TreeMap<>(cb.plans());
        out.writeInt(plans.size());
        for (PricePlan plan : plans.values()) {
            LedgerCodec.writeString(out, plan.name());
            ClosedPeriodCodec.writeDecimal(out, plan.perVcoreHour());
            ClosedPeriodCodec.writeDecimal(out, plan.perGbHour());
            ClosedPeriodCodec.writeDecimal(out, plan.perGpuHour());
        }
        LedgerCodec.writeString(out, cb.defaultPlan() == null ? "" : cb.defaultPlan());
        out.writeBoolean(cb.costPerPeriod() != null);
        if (cb.costPerPeriod() != null) {
            ClosedPeriodCodec.writeDecimal(out, cb.costPerPeriod());
        }
        out.writeInt(cb.currencyScale());
    }

    /**
     * A fixed-length schedule as it always was (so the versions of settings without a zone stay what they were); any
     * other after a length no fixed schedule has.
     */
    private static void writeSchedule(DataOutput out, Schedule schedule) throws IOException {
        if (schedule instanceof PeriodSchedule p) {
            out.writeLong(p.originMs());
            out.writeLong(p.lengthMs());
            LedgerCodec.writeString(out, p.prefix());
        } else {
            out.writeLong(0);
            out.writeLong(-1);
            LedgerCodec.writeString(out, schedule.toString());
        }
    }
}
