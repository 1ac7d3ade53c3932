package io.fairledger.core.chargeback;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The one rule for late events (docs/accounting.md, "Closed periods and late events"): a closed period is immutable,
 * so what a late event changes in it becomes adjustment lines carried by the next statement to close. For every closed
 * period and tenant, the adjustment due is the charge recomputed from every fact known now, minus the charge as closed,
 * minus every adjustment already issued for that period and tenant; zero means nothing is due.
 */
public final class LateAdjustments {

    private LateAdjustments() {
    }

    /**
     * A closed period: the charge of each tenant as closed, and as recomputed now.
     *
     * @param id         the period's id
     * @param asClosed   charge per tenant in the closed statement
     * @param recomputed charge per tenant recomputed from every fact stored now
     */
    public record ClosedPeriod(String id, Map<String, BigDecimal> asClosed, Map<String, BigDecimal> recomputed) {
    }

    /** An adjustment already carried by a closed statement: {@code amount} for {@code tenant} in {@code period}. */
    public record Issued(String period, String tenant, BigDecimal amount) {
    }

    /** An adjustment now due for {@code tenant}, correcting {@code correctedPeriod}. */
    public record Due(String tenant, String correctedPeriod, BigDecimal amount, String reason) {
    }

    /**
     * @param closed the closed periods, in period order
     * @param issued every adjustment the closed statements already carry
     * @return the adjustments due, by tenant (in tenant order), each tenant's in period order
     */
    public static Map<String, List<Due>> due(List<ClosedPeriod> closed, List<Issued> issued) {
        Map<String, BigDecimal> issuedSoFar = new TreeMap<>();
        for (Issued i : issued) {
            issuedSoFar.merge(i.period() + "\n" + i.tenant(), i.amount(), BigDecimal::add);
        }
        Map<String, List<Due>> due = new TreeMap<>();
        for (ClosedPeriod p : closed) {
            Map<String, BigDecimal> delta = new TreeMap<>();
            p.recomputed().forEach((tenant, charge) -> delta.merge(tenant, charge, BigDecimal::add));
            p.asClosed().forEach((tenant, charge) -> delta.merge(tenant, charge.negate(), BigDecimal::add));
            for (Map.Entry<String, BigDecimal> e : delta.entrySet()) {
                BigDecimal amount = e.getValue()
                        .subtract(issuedSoFar.getOrDefault(p.id() + "\n" + e.getKey(), BigDecimal.ZERO));
                if (amount.signum() != 0) {
                    due.computeIfAbsent(e.getKey(), t -> new ArrayList<>())
                            .add(new Due(e.getKey(), p.id(), amount, "late events for period " + p.id()));
                }
            }
        }
        return due;
    }

    /** The charge of each tenant in {@code statement}, for {@link ClosedPeriod}. */
    public static Map<String, BigDecimal> charges(Statement statement) {
        Map<String, BigDecimal> out = new TreeMap<>();
        statement.lines().forEach(l -> out.merge(l.tenant().toString(), l.charge(), BigDecimal::add));
        return out;
    }
}
