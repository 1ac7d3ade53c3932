package io.fairledger.core.replay;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.fairledger.core.chargeback.AdjustmentLine;
import io.fairledger.core.chargeback.ChargeModel;
import io.fairledger.core.chargeback.Period;
import io.fairledger.core.chargeback.Statement;
import io.fairledger.core.chargeback.TenantStatement;
import io.fairledger.core.fairness.FairnessDegree;
import io.fairledger.core.fairness.FairnessReport;
import io.fairledger.core.ledger.LedgerCodec;
import io.fairledger.core.model.TenantPath;

/**
 * How a {@link Checkpoint} writes and reads a period, a closed period's statement and its fairness report: decimals
 * exactly (scale and unscaled value), every line and adjustment in order.
 */
final class ClosedPeriodCodec {

    private ClosedPeriodCodec() {
    }

    static void writePeriod(DataOutput out, Period p) throws IOException {
        LedgerCodec.writeString(out, p.id());
        out.writeLong(p.start());
        out.writeLong(p.end());
    }

    static Period readPeriod(DataInput in) throws IOException {
        return new Period(LedgerCodec.readString(in), in.readLong(), in.readLong());
    }

    static void writeStatement(DataOutput out, Statement s) throws IOException {
        LedgerCodec.writeString(out, s.clusterId());
        writePeriod(out, s.period());
        LedgerCodec.writeString(out, s.model().name());
        out.writeInt(s.lines().size());
        for (TenantStatement l : s.lines()) {
            LedgerCodec.writePath(out, l.tenant());
            out.writeBoolean(l.inner());
            out.writeInt(l.resourceSeconds().size());
            for (BigDecimal v : l.resourceSeconds()) {
                writeDecimal(out, v);
            }
            for (BigDecimal v : new BigDecimal[]{l.counted(), l.actual(), l.entitled()}) {
                writeDecimal(out, v);
            }
            out.writeDouble(l.rho().value());
            out.writeBoolean(l.rho().noEntitlement());
            for (BigDecimal v : new BigDecimal[]{l.lent(), l.borrowed(), l.owed(), l.balance(), l.charge()}) {
                writeDecimal(out, v);
            }
            out.writeInt(l.adjustments().size());
            for (AdjustmentLine a : l.adjustments()) {
                LedgerCodec.writeString(out, a.correctedPeriod());
                LedgerCodec.writePath(out, a.tenant());
                writeDecimal(out, a.amount());
                LedgerCodec.writeString(out, a.reason());
            }
        }
    }

    static Statement readStatement(DataInput in) throws IOException {
        String cluster = LedgerCodec.readString(in);
        Period period = readPeriod(in);
        ChargeModel model = ChargeModel.valueOf(LedgerCodec.readString(in));
        int count = in.readInt();
        List<TenantStatement> lines = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            TenantPath tenant = LedgerCodec.readPath(in);
            boolean inner = in.readBoolean();
            int types = in.readInt();
            List<BigDecimal> seconds = new ArrayList<>(types);
            for (int r = 0; r < types; r++) {
                seconds.add(readDecimal(in));
            }
            BigDecimal counted = readDecimal(in);
            BigDecimal actual = readDecimal(in);
            BigDecimal entitled = readDecimal(in);
            FairnessDegree rho = new FairnessDegree(in.readDouble(), in.readBoolean());
            BigDecimal lent = readDecimal(in);
            BigDecimal borrowed = readDecimal(in);
            BigDecimal owed = readDecimal(in);
            BigDecimal balance = readDecimal(in);
            BigDecimal charge = readDecimal(in);
            int adjustments = in.readInt();
            List<AdjustmentLine> lineAdjustments = new ArrayList<>(adjustments);
            for (int a = 0; a < adjustments; a++) {
                lineAdjustments.add(new AdjustmentLine(LedgerCodec.readString(in),
                        LedgerCodec.readPath(in), readDecimal(in), LedgerCodec.readString(in)));
            }
            lines.add(new TenantStatement(tenant, inner, seconds, counted, actual, entitled, rho, lent, borrowed, owed,
                    balance, charge, lineAdjustments));
        }
        return new Statement(cluster, period, model, lines);
    }

    static void writeFairness(DataOutput out, FairnessReport f) throws IOException {
        out.writeInt(f.degrees().size());
        for (Map.Entry<String, FairnessDegree> e : f.degrees().entrySet()) {
            LedgerCodec.writeString(out, e.getKey());
            out.writeDouble(e.getValue().value());
            out.writeBoolean(e.getValue().noEntitlement());
        }
        out.writeDouble(f.sharingBenefit());
        out.writeDouble(f.sharingLoss());
        out.writeDouble(f.jainFairness());
        out.writeDouble(f.equality());
    }

    static FairnessReport readFairness(DataInput in) throws IOException {
        int count = in.readInt();
        Map<String, FairnessDegree> degrees = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            degrees.put(LedgerCodec.readString(in), new FairnessDegree(in.readDouble(), in.readBoolean()));
        }
        return new FairnessReport(degrees, in.readDouble(), in.readDouble(), in.readDouble(), in.readDouble());
    }

    /** A decimal exactly: its scale and unscaled value. */
    static void writeDecimal(DataOutput out, BigDecimal v) throws IOException {
        out.writeInt(v.scale());
        byte[] unscaled = v.unscaledValue().toByteArray();
        out.writeShort(unscaled.length);
        out.write(unscaled);
    }

    static BigDecimal readDecimal(DataInput in) throws IOException {
        int scale = in.readInt();
        byte[] unscaled = new byte[in.readUnsignedShort()];
        in.readFully(unscaled);
        return new BigDecimal(new BigInteger(unscaled), scale);
    }
}
