package io.fairledger.accounting;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.fairledger.core.chargeback.AdjustmentLine;
import io.fairledger.core.chargeback.Statement;
import io.fairledger.core.chargeback.TenantStatement;

/**
 * A period statement as callers see it, in the HTTP API ({@code GET .../statements}) and in the files of
 * {@code fairledger account}: one shape for both, so they can be compared byte for byte. Usage is in capacity-hours;
 * resource-seconds are exact; {@code rho} is null when the tenant had no entitlement.
 */
public record StatementView(String cluster, String period, Instant start, Instant end, String model,
        BigDecimal totalCharge, List<Line> lines) {

    public record Line(String tenant, BigDecimal vcoreSeconds, BigDecimal memoryMbSeconds, BigDecimal gpuSeconds,
            BigDecimal counted, BigDecimal actual, BigDecimal entitled, Double rho, BigDecimal lent,
            BigDecimal borrowed, BigDecimal balance, BigDecimal charge, List<Adjustment> adjustments,
            BigDecimal total) {
    }

    public record Adjustment(String correctedPeriod, BigDecimal amount, String reason) {
    }

    public static StatementView of(Statement s) {
        List<Line> lines = new ArrayList<>(s.lines().size());
        for (TenantStatement l : s.lines()) {
            List<Adjustment> adjustments = new ArrayList<>();
            for (AdjustmentLine a : l.adjustments()) {
                adjustments.add(new Adjustment(a.correctedPeriod(), a.amount(), a.reason()));
            }
            lines.add(new Line(l.tenant().toString(), l.resourceSeconds().get(0), l.resourceSeconds().get(1),
                    l.resourceSeconds().get(2), l.counted(), l.actual(), l.entitled(),
                    l.rho().noEntitlement() ? null : l.rho().value(), l.lent(), l.borrowed(), l.balance(), l.charge(),
                    adjustments, l.total()));
        }
        return new StatementView(s.clusterId(), s.period().id(), Instant.ofEpochMilli(s.period().start()),
                Instant.ofEpochMilli(s.period().end()), s.model().name(), s.totalCharge(), lines);
    }

    /** Header of the CSV form: one row per tenant per period. */
    public static final String CSV_HEADER = "cluster,period,start,end,model,tenant,vcore_seconds,memory_mb_seconds,"
            + "gpu_seconds,counted,actual,entitled,rho,lent,borrowed,balance,charge,adjustments,total";

    /** The CSV form of {@code statements}, header first. */
    public static String csv(List<StatementView> statements) {
        StringBuilder csv = new StringBuilder(CSV_HEADER).append('\n');
        for (StatementView s : statements) {
            s.csvRows().forEach(row -> csv.append(row).append('\n'));
        }
        return csv.toString();
    }

    /** The CSV rows of this statement (no header). */
    public List<String> csvRows() {
        List<String> rows = new ArrayList<>(lines.size());
        for (Line l : lines) {
            BigDecimal adjusted = l.adjustments().stream().map(Adjustment::amount).reduce(BigDecimal.ZERO,
                    BigDecimal::add);
            rows.add(String.join(",", cluster, period, start.toString(), end.toString(), model, l.tenant(),
                    plain(l.vcoreSeconds()), plain(l.memoryMbSeconds()), plain(l.gpuSeconds()), plain(l.counted()),
                    plain(l.actual()), plain(l.entitled()), l.rho() == null ? "" : Double.toString(l.rho()),
                    plain(l.lent()), plain(l.borrowed()), plain(l.balance()), plain(l.charge()), plain(adjusted),
                    plain(l.total())));
        }
        return rows;
    }

    private static String plain(BigDecimal value) {
        return value.toPlainString();
    }
}
