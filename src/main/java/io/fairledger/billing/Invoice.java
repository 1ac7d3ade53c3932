package io.fairledger.billing;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Currency;
import java.util.List;

/**
 * A tenant's invoice for one closed period: the same charges as its FOCUS rows ({@link ChargeRows}), one line per
 * resource and one per correction of an earlier period, their total, and the chain hash of the closed statement it
 * bills (null when the statement is not chained). Amounts are shown with {@link #scale} decimals: the currency's own
 * ({@link Currency#getDefaultFractionDigits}), or more when the cluster keeps more ({@code currencyScale}).
 *
 * @param id        the FOCUS {@code InvoiceId}
 * @param chainHash the closed statement's {@code chain.hash}, null when not chained
 */
public record Invoice(String id, String cluster, String issuer, String tenant, String period, Instant start,
        Instant end, String currency, int scale, List<Line> lines, List<Correction> corrections, BigDecimal total,
        String chainHash) {

    /**
     * A resource used: its quantity in {@code unit}, the price of one unit at the tenant's plan, the cost at that price
     * ({@code listAmount}, rounded to the scale) and the amount billed, less by the discount on borrowed usage.
     */
    public record Line(String resource, String unit, BigDecimal quantity, String plan, BigDecimal unitPrice,
            BigDecimal listAmount, BigDecimal amount) {
    }

    /** An adjustment of an earlier closed period, named with its bounds. */
    public record Correction(String correctedPeriod, Instant correctedStart, Instant correctedEnd, String reason,
            BigDecimal amount) {
    }

    /** The invoice of {@code rows}: one tenant's charges of one closed period. */
    static Invoice of(String issuer, String cluster, String tenant, String period, Instant start, Instant end,
            String currency, int keptScale, List<ChargeRow> rows, String chainHash) {
        int digits = Currency.getInstance(currency).getDefaultFractionDigits();
        int scale = Math.max(digits, keptScale);
        List<Line> lines = new ArrayList<>();
        List<Correction> corrections = new ArrayList<>();
        BigDecimal total = BigDecimal.ZERO.setScale(scale);
        for (ChargeRow r : rows) {
            total = total.add(r.billedCost());
            if (r.correction()) {
                corrections.add(new Correction(r.chargePeriod(), r.chargeStart(), r.chargeEnd(), r.reason(),
                        r.billedCost().setScale(scale)));
            } else {
                lines.add(new Line(r.resource().label(), r.resource().unit(), r.quantity(), r.plan(),
                        r.contractedUnitPrice(), r.contractedCost().setScale(scale, RoundingMode.HALF_EVEN),
                        r.billedCost().setScale(scale)));
            }
        }
        return new Invoice(ChargeRow.invoiceId(cluster, tenant, period), cluster, issuer, tenant, period, start, end,
                currency, scale, lines, corrections, total.setScale(scale), chainHash);
    }
}
