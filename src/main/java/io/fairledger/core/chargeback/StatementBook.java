package io.fairledger.core.chargeback;

import io.fairledger.core.model.TenantPath;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The closed statements of one cluster. A closed period is immutable (DOMAIN.md section 8): it cannot be closed
 * again or replaced; a late event for it is settled by {@link #adjustmentsFor(Statement, String)}, whose lines go into
 * the open period's statement and name the period they correct.
 */
public final class StatementBook {

    private final Map<String, Statement> closed = new LinkedHashMap<>();

    /** Records {@code statement} as closed; a period is closed once. */
    public void close(Statement statement) {
        String id = statement.period().id();
        if (closed.containsKey(id)) {
            throw new IllegalStateException("period " + id + " is already closed; corrections are adjustments");
        }
        closed.put(id, statement);
    }

    /** The closed statement of {@code periodId}, if any. */
    public Optional<Statement> closed(String periodId) {
        return Optional.ofNullable(closed.get(periodId));
    }

    /** All closed statements, in closing order. */
    public List<Statement> closedStatements() {
        return List.copyOf(closed.values());
    }

    /**
     * Adjustment lines for a closed period given its {@code recomputed} statement (from a replay that includes late
     * events): per tenant, recomputed charge minus closed charge, where different. The closed statement is unchanged.
     */
    public List<AdjustmentLine> adjustmentsFor(Statement recomputed, String reason) {
        String id = recomputed.period().id();
        Statement original = closed.get(id);
        if (original == null) {
            throw new IllegalArgumentException("period " + id + " is not closed; recompute it instead");
        }
        Map<TenantPath, BigDecimal> before = new LinkedHashMap<>();
        original.lines().forEach(l -> before.put(l.tenant(), l.charge()));
        Map<TenantPath, BigDecimal> after = new LinkedHashMap<>();
        recomputed.lines().forEach(l -> after.put(l.tenant(), l.charge()));
        TreeSet<TenantPath> tenants = new TreeSet<>(before.keySet());
        tenants.addAll(after.keySet());
        List<AdjustmentLine> out = new ArrayList<>();
        for (TenantPath t : tenants) {
            BigDecimal diff = after.getOrDefault(t, BigDecimal.ZERO).subtract(before.getOrDefault(t, BigDecimal.ZERO));
            if (diff.signum() != 0) {
                out.add(new AdjustmentLine(id, t, diff, reason));
            }
        }
        return out;
    }
}
