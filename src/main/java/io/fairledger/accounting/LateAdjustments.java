package io.fairledger.accounting;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the next statement to close owes for late events: for every closed period and tenant, the recomputed charge
 * minus the charge as closed minus every adjustment already issued for that period (DOMAIN.md section 8: a closed
 * period is immutable; a late event becomes an adjustment line naming the period it corrects).
 */
public final class LateAdjustments {

    private LateAdjustments() {
    }

    /**
     * @param closed     the statements as closed, in period order, with the adjustments they carried
     * @param recomputed the same periods recomputed from every fact stored now, by period id
     * @return the adjustments due, by tenant, each naming its period
     */
    public static Map<String, List<StatementView.Adjustment>> due(List<StatementView> closed,
            Map<String, StatementView> recomputed) {
        Map<String, BigDecimal> issued = new TreeMap<>();
        for (StatementView s : closed) {
            for (StatementView.Line line : s.lines()) {
                for (StatementView.Adjustment a : line.adjustments()) {
                    issued.merge(a.correctedPeriod() + "\n" + line.tenant(), a.amount(), BigDecimal::add);
                }
            }
        }
        Map<String, List<StatementView.Adjustment>> due = new TreeMap<>();
        for (StatementView s : closed) {
            StatementView now = recomputed.get(s.period());
            if (now == null) {
                continue;
            }
            Map<String, BigDecimal> delta = new TreeMap<>();
            now.lines().forEach(l -> delta.merge(l.tenant(), l.charge(), BigDecimal::add));
            s.lines().forEach(l -> delta.merge(l.tenant(), l.charge().negate(), BigDecimal::add));
            for (Map.Entry<String, BigDecimal> e : delta.entrySet()) {
                BigDecimal amount = e.getValue()
                        .subtract(issued.getOrDefault(s.period() + "\n" + e.getKey(), BigDecimal.ZERO));
                if (amount.signum() != 0) {
                    due.computeIfAbsent(e.getKey(), t -> new ArrayList<>()).add(new StatementView.Adjustment(
                            s.period(), amount, "late events for period " + s.period()));
                }
            }
        }
        return due;
    }

    /** {@code statement} carrying {@code due}: each tenant line gets its adjustments and a new total. */
    public static StatementView carry(StatementView statement, Map<String, List<StatementView.Adjustment>> due) {
        List<StatementView.Line> lines = new ArrayList<>(statement.lines().size());
        for (StatementView.Line l : statement.lines()) {
            List<StatementView.Adjustment> extra = due.getOrDefault(l.tenant(), List.of());
            List<StatementView.Adjustment> adjustments = new ArrayList<>(l.adjustments());
            adjustments.addAll(extra);
            BigDecimal total = l.total();
            for (StatementView.Adjustment a : extra) {
                total = total.add(a.amount());
            }
            lines.add(new StatementView.Line(l.tenant(), l.vcoreSeconds(), l.memoryMbSeconds(), l.gpuSeconds(),
                    l.counted(), l.actual(), l.entitled(), l.rho(), l.lent(), l.borrowed(), l.balance(), l.charge(),
                    adjustments, total));
        }
        return new StatementView(statement.cluster(), statement.period(), statement.start(), statement.end(),
                statement.model(), statement.totalCharge(), lines);
    }
}
