package io.fairledger.accounting;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import io.fairledger.core.chain.ChainLink;
import io.fairledger.core.chargeback.AdjustmentLine;
import io.fairledger.core.chargeback.ChargeModel;
import io.fairledger.core.chargeback.Chargeback;
import io.fairledger.core.chargeback.Proration;
import io.fairledger.core.chargeback.Statement;
import io.fairledger.core.chargeback.StatementToDate;
import io.fairledger.core.chargeback.TenantStatement;
import io.fairledger.core.model.TenantPath;

/**
 * A period statement as callers see it, in the HTTP API ({@code GET .../statements}) and in the files of
 * {@code fairledger account} (its CSV form is {@link StatementCsv}): one shape for both, so they can be compared byte
 * for byte. Usage is in capacity-hours; resource-seconds are exact; {@code rho} is null when the tenant had no
 * entitlement. Every line's {@code balance} is {@code lent - owed}; inner tenants have lines ({@code inner: true},
 * never charged) so each sibling group's balances sum to zero. {@code totalCharge} is the sum of the lines' totals,
 * adjustment lines included.
 *
 * @param state    {@value #CLOSED} (stored once, never changes) or {@value #PROVISIONAL} (ended, but facts for it may
 *                 still arrive within the allowed lateness)
 * @param currency the ISO 4217 code of every amount
 * @param prorated under GROUP_BUY, for a period shorter than the whole period of its schedule (a short first period,
 *                 the last before a change of schedule): the part of the cost per period it costs; absent otherwise
 * @param chain    a closed period's place in its cluster's chain ({@link ChainLink}, docs/billing.md); null (left out of
 *                 the JSON) for provisional periods, periods closed before the chain existed, and a closed period before
 *                 it is stored
 */
public record StatementView(String cluster, String period, Instant start, Instant end,
        @Schema(enumeration = {
                CLOSED, PROVISIONAL}) String state,
        String model,
        @Schema(description = "ISO 4217 code of every amount") String currency, BigDecimal totalCharge,
        List<Line> lines, @JsonInclude(JsonInclude.Include.NON_NULL) Prorated prorated,
        @Schema(description = "closed periods only: the statement's place in the cluster's signed chain "
                + "(docs/billing.md)") @JsonInclude(JsonInclude.Include.NON_NULL) ChainLink chain){

    /**
     * A short period's cost: {@code fraction} (rounded to 6 decimals; the money is computed exactly) of the cost per
     * period, its {@code hours} of the whole period's {@code wholeHours}.
     */
    public record Prorated(BigDecimal fraction, BigDecimal hours, BigDecimal wholeHours) {
        static Prorated of(Proration p) {
            return p == null
                    ? null
                    : new Prorated(p.fraction(), hours(p.partMs()), hours(p.wholeMs()));
        }

        private static BigDecimal hours(long ms) {
            return BigDecimal.valueOf(ms).divide(BigDecimal.valueOf(3_600_000L), Proration.FRACTION_SCALE,
                    RoundingMode.HALF_EVEN);
        }
    }

    /** The state of a period whose statement is stored and never changes. */
    public static final String CLOSED = "closed";
    /** The state of a period that ended but may still change (late facts within the allowed lateness). */
    public static final String PROVISIONAL = "provisional";

    /** A statement of a whole period, without a chain. */
    public StatementView(String cluster, String period, Instant start, Instant end, String state, String model,
            String currency, BigDecimal totalCharge, List<Line> lines) {
        this(cluster, period, start, end, state, model, currency, totalCharge, lines, null, null);
    }

    /**
     * One tenant's line; {@code own} (in the JSON only when true) marks the own line of a tenant with children, the
     * tasks it ran itself (docs/domain.md section 2).
     */
    @JsonIgnoreProperties(value = "own", allowGetters = true)
    public record Line(String tenant, boolean inner, BigDecimal vcoreSeconds, BigDecimal memoryMbSeconds,
            BigDecimal gpuSeconds, BigDecimal counted, BigDecimal actual, BigDecimal entitled, Double rho,
            BigDecimal lent, BigDecimal borrowed, BigDecimal owed, BigDecimal balance, BigDecimal charge,
            List<Adjustment> adjustments, BigDecimal total) {

        /** True for an own line ({@link TenantPath#isOwnLine}). */
        @JsonProperty("own")
        @JsonInclude(JsonInclude.Include.NON_DEFAULT)
        public boolean own() {
            return TenantPath.parse(tenant).isOwnLine();
        }
    }

    public record Adjustment(String correctedPeriod, BigDecimal amount, String reason) {
    }

    /** {@code s} in {@code state}, its amounts in {@code currency}. */
    public static StatementView of(Statement s, String state, String currency) {
        return of(s, state, currency, tenant -> true);
    }

    /**
     * {@code s} in {@code state}, its amounts in {@code currency}, with only the lines of the tenants {@code kept}
     * accepts (and its {@code totalCharge}); the others are not converted.
     */
    public static StatementView of(Statement s, String state, String currency, Predicate<TenantPath> kept) {
        List<Line> lines = new ArrayList<>();
        for (TenantStatement l : s.lines()) {
            if (!kept.test(l.tenant())) {
                continue;
            }
            lines.add(line(l));
        }
        return new StatementView(s.clusterId(), s.period().id(), Instant.ofEpochMilli(s.period().start()),
                Instant.ofEpochMilli(s.period().end()), state, s.model().name(), currency, s.totalCharge(), lines,
                Prorated.of(s.prorated()), null);
    }

    /** {@code l} as a statement shows it. */
    public static Line line(TenantStatement l) {
        List<Adjustment> adjustments = new ArrayList<>();
        for (AdjustmentLine a : l.adjustments()) {
            adjustments.add(new Adjustment(a.correctedPeriod(), a.amount(), a.reason()));
        }
        return new Line(l.tenant().toString(), l.inner(), l.resourceSeconds().get(0), l.resourceSeconds().get(1),
                l.resourceSeconds().get(2), l.counted(), l.actual(), l.entitled(),
                l.rho().noEntitlement() ? null : l.rho().value(), l.lent(), l.borrowed(), l.owed(), l.balance(),
                l.charge(), adjustments, l.total());
    }

    /**
     * The open period's statement to date {@code s} with only {@code lines} (some of its lines, computed alone:
     * {@link StatementToDate#line}) and no total, in its amounts' {@code currency}.
     */
    public static StatementView provisional(StatementToDate s, String currency, List<Line> lines) {
        ChargeModel model = s.prices().model();
        return new StatementView(s.clusterId(), s.period().id(), Instant.ofEpochMilli(s.period().start()),
                Instant.ofEpochMilli(s.period().end()), PROVISIONAL, model.name(), currency, null, lines,
                Prorated.of(Chargeback.prorated(model, s.part())), null);
    }

    /** The same statement in {@code state}. */
    public StatementView in(String newState) {
        return new StatementView(cluster, period, start, end, newState, model, currency, totalCharge, lines, prorated,
                chain);
    }

    /** The same statement at {@code link} in its cluster's chain. */
    public StatementView withChain(ChainLink link) {
        return new StatementView(cluster, period, start, end, state, model, currency, totalCharge, lines, prorated,
                link);
    }

    /** The same statement without the cluster's total (a tenant's view of its subtree, whose lines it holds). */
    public StatementView withoutTotal() {
        return withLines(lines);
    }

    /**
     * The same statement with only {@code kept} lines and no total (a tenant's view of its subtree), with the chain of
     * the whole statement: it names the cluster's statement these lines are part of, and its signature can be checked.
     */
    public StatementView withLines(List<Line> kept) {
        return new StatementView(cluster, period, start, end, state, model, currency, null, kept, prorated, chain);
    }
}
