package io.fairledger.accounting;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.fairledger.core.chargeback.LateAdjustments;
import io.fairledger.core.chargeback.LateAdjustments.ClosedPeriod;
import io.fairledger.core.chargeback.LateAdjustments.Due;
import io.fairledger.core.chargeback.LateAdjustments.Issued;

/**
 * The adjustment lines of statements as the server stores them: the core's late-adjustment rule
 * ({@link LateAdjustments}) applied to closed statements read back and to the same periods recomputed from the stored
 * facts ({@link #due}), and the adjustments due carried by the next statement to close ({@link #carry}).
 */
public final class StatementAdjustments {

    private StatementAdjustments() {
    }

    /**
     * @param closed     the statements as closed, in period order, with the adjustments they carried
     * @param recomputed the same periods recomputed from every fact stored now, by period id
     * @return the adjustments due, by tenant, each naming its period
     */
    public static Map<String, List<StatementView.Adjustment>> due(List<StatementView> closed,
            Map<String, StatementView> recomputed) {
        List<Issued> issued = new ArrayList<>();
        List<ClosedPeriod> periods = new ArrayList<>();
        for (StatementView s : closed) {
            for (StatementView.Line line : s.lines()) {
                for (StatementView.Adjustment a : line.adjustments()) {
                    issued.add(new Issued(a.correctedPeriod(), line.tenant(), a.amount()));
                }
            }
            StatementView now = recomputed.get(s.period());
            if (now != null) {
                periods.add(new ClosedPeriod(s.period(), charges(s), charges(now)));
            }
        }
        Map<String, List<StatementView.Adjustment>> due = new TreeMap<>();
        for (Map.Entry<String, List<Due>> e : LateAdjustments.due(periods, issued)
                .entrySet()) {
            due.put(e.getKey(), e.getValue().stream()
                    .map(d -> new StatementView.Adjustment(d.correctedPeriod(), d.amount(), d.reason())).toList());
        }
        return due;
    }

    private static Map<String, BigDecimal> charges(StatementView statement) {
        Map<String, BigDecimal> out = new TreeMap<>();
        statement.lines().forEach(l -> out.merge(l.tenant(), l.charge(), BigDecimal::add));
        return out;
    }

    /** {@code statement} carrying {@code due}: each tenant line gets its adjustments and a new total. */
    public static StatementView carry(StatementView statement, Map<String, List<StatementView.Adjustment>> due) {
        List<StatementView.Line> lines = new ArrayList<>(statement.lines().size());
        BigDecimal totalCharge = BigDecimal.ZERO;
        for (StatementView.Line l : statement.lines()) {
            List<StatementView.Adjustment> extra = due.getOrDefault(l.tenant(), List.of());
            List<StatementView.Adjustment> adjustments = new ArrayList<>(l.adjustments());
            adjustments.addAll(extra);
            BigDecimal total = l.total();
            for (StatementView.Adjustment a : extra) {
                total = total.add(a.amount());
            }
            totalCharge = totalCharge.add(total);
            lines.add(new StatementView.Line(l.tenant(), l.inner(), l.vcoreSeconds(), l.memoryMbSeconds(),
                    l.gpuSeconds(), l.counted(), l.actual(), l.entitled(), l.rho(), l.lent(), l.borrowed(), l.owed(),
                    l.balance(), l.charge(), adjustments, total));
        }
        return new StatementView(statement.cluster(), statement.period(), statement.start(), statement.end(),
                statement.state(), statement.model(), statement.currency(), totalCharge, lines, statement.prorated(),
                null);
    }
}
