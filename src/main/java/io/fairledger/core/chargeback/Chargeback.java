package io.fairledger.core.chargeback;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.fairledger.core.fairness.FairnessDegree;
import io.fairledger.core.ledger.TenantAccount;
import io.fairledger.core.model.MemoryUnits;
import io.fairledger.core.model.PathOrder;
import io.fairledger.core.model.PricePlan;
import io.fairledger.core.model.TenantPath;

/**
 * Turns a closed period's accounts into a {@link Statement} (docs/domain.md section 8).
 *
 * <p>
 * Every node but the root has a line, in path order; the leaves of the tenant tree are billed, inner nodes (sums of
 * their subtrees) have lines marked {@code inner} with their usage and lending at their own level and a charge of 0, so
 * each sibling group's balances can be checked to sum to zero (docs/accounting.md). On every line
 * {@code balance = lent - owed}, each rounded to {@link #USAGE_SCALE} first. A tenant whose price plan is not
 * configured is billed at the default plan.
 * <ul>
 * <li>{@code USAGE}: {@code charge = sum over types r of price_r x integral of held_r(t) x g'(t) / g(t) dt} (1 when
 * {@code g = 0}): each resource held is priced for the fraction of the holding that counts at that instant (LTRF eq.
 * 7), so borrowed resources are cheaper by eta exactly while they are borrowed; never the period's ratio F/A. The
 * ledger keeps {@code integral of held_r x (1 - g'/g) dt} per type, so the charged unit-hours are the exact
 * resource-hours minus that. A tenant with no usage pays 0. Each charge is rounded HALF_EVEN to the currency's
 * scale.</li>
 * <li>{@code GROUP_BUY}: the period's cost (the cost per period; for a period shorter than the whole period of its
 * schedule, a short first period or the last before a change of schedule, that part of it by duration, rounded
 * HALF_EVEN: {@link Proration}) is split in proportion to the leaves' shares S (equally if every share is
 * 0). On top, each borrower pays {@code eta x price x borrowed capacity-hours} (price = cost / period hours, one
 * capacity-hour of the whole cluster), rounded HALF_EVEN; the total paid is credited to lenders pro rata to what they
 * lent; with nobody lending, nobody pays. Settlements therefore sum to exactly zero and the charges to exactly the
 * period's cost.</li>
 * </ul>
 * Apportioning rule (cost split and credits): each part is rounded down to the currency's scale and the remaining
 * units go one each to the largest remainders, ties by tenant path, so parts sum exactly to the total.
 */
public final class Chargeback {

    /** Decimals of usage values (capacity-hours) in statements. */
    public static final int USAGE_SCALE = 6;

    private static final MathContext MC = MathContext.DECIMAL128;
    private static final BigDecimal MS_PER_HOUR = BigDecimal.valueOf(3_600_000L);
    /** Ledger units in a priced unit: millicores in a vcore, thousandths of a MB in a GB (1024 MB), GPUs. */
    private static final BigDecimal[] UNITS_PER_PRICED_UNIT = {BigDecimal.valueOf(1000),
            BigDecimal.valueOf(1024 * MemoryUnits.PER_MB), BigDecimal.ONE};

    private Chargeback() {
    }

    /** The statement of a whole {@code period} from the accounts the ledger returned when the period was closed. */
    public static Statement statement(String clusterId, Period period, List<TenantAccount> accounts,
            ChargebackConfig config) {
        return statement(clusterId, period, accounts, config, null);
    }

    /**
     * The statement of {@code period}, {@code part} of its whole period (null: all of it), from the accounts the ledger
     * returned when the period was closed.
     */
    public static Statement statement(String clusterId, Period period, List<TenantAccount> accounts,
            ChargebackConfig config, Proration part) {
        List<TenantAccount> all = List.copyOf(accounts); // each account made once if made when read
        List<TenantAccount> billed = leaves(all);
        Proration prorated = prorated(config.model(), part);
        List<BigDecimal> charges = config.model() == ChargeModel.USAGE
                ? usageCharges(billed, config)
                : groupBuyCharges(billed, period, config, prorated);
        Map<TenantPath, BigDecimal> chargeOf = new HashMap<>();
        for (int i = 0; i < billed.size(); i++) {
            chargeOf.put(billed.get(i).path(), charges.get(i));
        }
        BigDecimal none = BigDecimal.ZERO.setScale(config.currencyScale());
        List<TenantStatement> lines = new ArrayList<>(all.size());
        for (TenantAccount a : at(all, PathOrder.nonRoot(paths(all)))) {
            BigDecimal charge = chargeOf.get(a.path());
            lines.add(line(a, charge == null ? none : charge, charge == null));
        }
        return new Statement(clusterId, period, config.model(), lines, prorated);
    }

    /**
     * The line {@link #statement} gives {@code a}, a node with children when {@code inner} (not the root), computed
     * without the other accounts: every inner line, and a leaf's under {@code USAGE}; empty for a leaf under
     * {@code GROUP_BUY}, whose charge is a part of a split over every leaf.
     */
    static Optional<TenantStatement> lineAlone(TenantAccount a, boolean inner, ChargebackConfig config) {
        if (inner) {
            return Optional.of(line(a, BigDecimal.ZERO.setScale(config.currencyScale()), true));
        }
        if (config.model() != ChargeModel.USAGE) {
            return Optional.empty();
        }
        return Optional.of(line(a, usageCharge(a, config), false));
    }

    /** What a statement under {@code model} of a period that is {@code part} of its whole says is prorated. */
    public static Proration prorated(ChargeModel model, Proration part) {
        return model == ChargeModel.GROUP_BUY ? part : null;
    }

    /** The billed tenants among {@code accounts}: the leaves (root excluded), in path order. */
    public static List<TenantAccount> leaves(List<TenantAccount> accounts) {
        return at(accounts, PathOrder.leaves(paths(accounts)));
    }

    private static List<TenantPath> paths(List<TenantAccount> accounts) {
        return accounts.stream().map(TenantAccount::path).toList();
    }

    private static List<TenantAccount> at(List<TenantAccount> accounts, int[] positions) {
        return Arrays.stream(positions).mapToObj(accounts::get).toList();
    }

    private static List<BigDecimal> usageCharges(List<TenantAccount> billed, ChargebackConfig config) {
        List<BigDecimal> out = new ArrayList<>(billed.size());
        for (TenantAccount a : billed) {
            out.add(usageCharge(a, config));
        }
        return out;
    }

    /** {@code a}'s usage priced at its plan, rounded HALF_EVEN to the currency's scale. */
    private static BigDecimal usageCharge(TenantAccount a, ChargebackConfig config) {
        PricePlan plan = planOf(config, a.pricePlan());
        BigDecimal[] prices = {plan.perVcoreHour(), plan.perGbHour(), plan.perGpuHour()};
        BigDecimal charge = BigDecimal.ZERO;
        for (int r = 0; r < prices.length; r++) {
            BigDecimal counted = new BigDecimal(a.period().resourceMs().get(r))
                    .subtract(BigDecimal.valueOf(a.period().uncountedResourceMs().get(r)), MC);
            BigDecimal hours = counted.max(BigDecimal.ZERO)
                    .divide(UNITS_PER_PRICED_UNIT[r].multiply(MS_PER_HOUR), MC);
            charge = charge.add(prices[r].multiply(hours, MC), MC);
        }
        return charge.setScale(config.currencyScale(), RoundingMode.HALF_EVEN);
    }

    /** The plan of a tenant naming {@code pricePlan} (null: none): that plan if configured, else the default plan. */
    public static PricePlan planOf(ChargebackConfig config, String pricePlan) {
        PricePlan plan = pricePlan == null ? null : config.plans().get(pricePlan);
        return plan != null ? plan : config.plans().get(config.defaultPlan());
    }

    private static List<BigDecimal> groupBuyCharges(List<TenantAccount> billed, Period period,
            ChargebackConfig config, Proration prorated) {
        int scale = config.currencyScale();
        BigDecimal cost = prorated == null
                ? config.costPerPeriod().setScale(scale, RoundingMode.HALF_EVEN)
                : prorated.of(config.costPerPeriod(), scale);
        List<BigDecimal> shares = new ArrayList<>();
        boolean anyShare = billed.stream().anyMatch(a -> a.share() > 0);
        List<String> keys = new ArrayList<>();
        for (TenantAccount a : billed) {
            shares.add(anyShare ? BigDecimal.valueOf(a.share()) : BigDecimal.ONE);
            keys.add(a.path().toString());
        }
        List<BigDecimal> base = apportion(cost, shares, keys, scale);
        BigDecimal periodHours = BigDecimal.valueOf(period.lengthMs()).divide(MS_PER_HOUR, MC);
        BigDecimal price = cost.divide(periodHours, MC);
        List<BigDecimal> payments = new ArrayList<>();
        List<BigDecimal> lent = new ArrayList<>();
        BigDecimal totalLent = BigDecimal.ZERO;
        for (TenantAccount a : billed) {
            BigDecimal l = capacityHours(a.period().lent());
            lent.add(l);
            totalLent = totalLent.add(l);
        }
        BigDecimal paid = BigDecimal.ZERO;
        for (TenantAccount a : billed) {
            BigDecimal p = totalLent.signum() > 0
                    ? BigDecimal.valueOf(a.discountRate()).multiply(price, MC)
                            .multiply(capacityHours(a.period().borrowed()), MC)
                            .setScale(scale, RoundingMode.HALF_EVEN)
                    : BigDecimal.ZERO.setScale(scale);
            payments.add(p);
            paid = paid.add(p);
        }
        List<BigDecimal> credits = totalLent.signum() > 0
                ? apportion(paid, lent, keys, scale)
                : java.util.Collections.nCopies(billed.size(), BigDecimal.ZERO.setScale(scale));
        List<BigDecimal> out = new ArrayList<>();
        for (int i = 0; i < billed.size(); i++) {
            out.add(base.get(i).add(payments.get(i)).subtract(credits.get(i)));
        }
        return out;
    }

    /**
     * Splits {@code total} (>= 0) in proportion to {@code weights} (>= 0, not all 0) so that the parts sum exactly to
     * it: each part rounded down to {@code scale}, the remaining units to the largest remainders, ties by key.
     */
    public static List<BigDecimal> apportion(BigDecimal total, List<BigDecimal> weights, List<String> keys,
            int scale) {
        if (total.signum() < 0) {
            throw new IllegalArgumentException("cannot apportion a negative total " + total);
        }
        BigDecimal sum = weights.stream().reduce(BigDecimal.ZERO, BigDecimal::add);
        int n = weights.size();
        List<BigDecimal> parts = new ArrayList<>(n);
        if (n == 0) {
            return parts;
        }
        if (sum.signum() <= 0) {
            throw new IllegalArgumentException("cannot apportion by weights that are all 0");
        }
        BigDecimal[] remainders = new BigDecimal[n];
        BigDecimal assigned = BigDecimal.ZERO;
        for (int i = 0; i < n; i++) {
            BigDecimal exact = total.multiply(weights.get(i), MC).divide(sum, MC);
            BigDecimal floor = exact.setScale(scale, RoundingMode.FLOOR);
            parts.add(floor);
            remainders[i] = exact.subtract(floor);
            assigned = assigned.add(floor);
        }
        BigDecimal unit = BigDecimal.ONE.movePointLeft(scale);
        int left = total.subtract(assigned).divide(unit, 0, RoundingMode.HALF_EVEN).intValueExact();
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, Comparator.comparing((Integer i) -> remainders[i]).reversed()
                .thenComparing(i -> keys.get(i)));
        for (int k = 0; k < left; k++) {
            int i = order[k % n];
            parts.set(i, parts.get(i).add(unit));
        }
        return parts;
    }

    /** Capacity-milliseconds (share x ms) as capacity-hours, rounded HALF_EVEN to {@link #USAGE_SCALE} decimals. */
    public static BigDecimal capacityHours(double capacityMs) {
        return BigDecimal.valueOf(capacityMs).divide(MS_PER_HOUR, MC).setScale(USAGE_SCALE, RoundingMode.HALF_EVEN);
    }

    private static TenantStatement line(TenantAccount a, BigDecimal charge, boolean inner) {
        List<BigDecimal> seconds = new ArrayList<>();
        for (int r = 0; r < a.period().resourceMs().size(); r++) {
            BigDecimal unitSeconds = a.period().resourceSeconds(r);
            // the ledger counts CPU in millicores and memory in thousandths of a MB; statements report vcore-seconds
            // and MB-seconds, as YARN's vcoreSeconds and memorySeconds
            seconds.add(switch (r) {
                case 0 -> unitSeconds.movePointLeft(3);
                case 1 -> MemoryUnits.mbSeconds(unitSeconds);
                default -> unitSeconds;
            });
        }
        var p = a.period();
        BigDecimal lent = capacityHours(p.lent());
        BigDecimal owed = capacityHours(p.borrowedFromSiblings());
        return new TenantStatement(a.path(), inner, seconds, capacityHours(p.counted()), capacityHours(p.actual()),
                capacityHours(p.entitled()), FairnessDegree.of(Math.max(0, p.actual()), Math.max(0, p.entitled())),
                lent, capacityHours(p.borrowed()), owed, lent.subtract(owed), charge, List.of());
    }
}
