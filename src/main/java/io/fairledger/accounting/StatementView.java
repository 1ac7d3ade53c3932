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
 * {@code fairledger account} (its CSV form is {@link StatementCsv}): one shape for both, so they can be compared byte for byte. Usage is in capacity-hours;
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

}
