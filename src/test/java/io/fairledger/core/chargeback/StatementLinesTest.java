package io.fairledger.core.chargeback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import io.fairledger.core.ledger.ClusterLedger;
import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.model.ClusterConfig;
import io.fairledger.core.model.MemoryMode;
import io.fairledger.core.model.PricePlan;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantConfig;
import io.fairledger.core.model.TenantPath;

/**
 * Issue #15 case 12, the rules docs/accounting.md states for statement lines: lending matched on both sides
 * ({@code lent = u M / U}, {@code owed = b M / B}, {@code M = min(B, U)}), {@code balance = lent - owed} on every line,
 * inner tenants with lines so each sibling group sums to zero, and a USAGE charge integrated at {@code g'/g} per
 * instant.
 */
class StatementLinesTest {

    private static final long HOUR = 3_600_000L;
    private static final Period FIRST_HOUR = new Period("0", 0, HOUR);
    private static final PricePlan ONE_PER_VCORE_HOUR = new PricePlan("std", BigDecimal.ONE, BigDecimal.ZERO,
            BigDecimal.ZERO);

    private static ClusterLedger ledger(double eta, ResourceVector capacity, String... tenants) {
        List<TenantConfig> ts = Arrays.stream(tenants).map(t -> TenantConfig.of(t, 1)).toList();
        return new ClusterLedger(ClusterConfig.defaults("c", 0, capacity, ts).withMemory(new MemoryMode.Full())
                .withDiscountRate(eta));
    }

    private static void start(ClusterLedger l, String task, String tenant, ResourceVector size, long at) {
        l.apply(new LedgerEvent.TaskStarted("c", task, TenantPath.parse(tenant), "", size, at));
    }

    private static Map<String, TenantStatement> byTenant(Statement s) {
        return s.lines().stream().collect(Collectors.toMap(l -> l.tenant().toString(), Function.identity()));
    }

    @Test
    void whenSiblingsBorrowMoreThanIsUnusedBothSidesAreScaledToWhatWasMatched() {
        // dominant shares: a holds 8 of 10 vcores, b 8 of 10 GB; c holds nothing. S = 1/3 each.
        // b_a = b_b = 0.8 - 1/3, u_c = 1/3: B = 14/15 > U = 1/3, so M = 1/3
        var l = ledger(1.0, ResourceVector.of(10, 10240, 0), "a", "b", "c");
        start(l, "t1", "root.a", ResourceVector.of(8, 0, 0), 0);
        start(l, "t2", "root.b", ResourceVector.of(0, 8192, 0), 0);
        var s = byTenant(Chargeback.statement("c", FIRST_HOUR, l.closePeriod(HOUR),
                ChargebackConfig.usage(ONE_PER_VCORE_HOUR)));
        double m = 1.0 / 3;
        double b = 0.8 - 1.0 / 3;
        assertThat(s.get("root.c").lent().doubleValue()).isCloseTo(m, within(1e-6));
        assertThat(s.get("root.a").borrowed().doubleValue()).isCloseTo(b, within(1e-6));
        assertThat(s.get("root.a").owed().doubleValue()).isCloseTo(b * m / (2 * b), within(1e-6));
        BigDecimal sum = BigDecimal.ZERO;
        for (TenantStatement line : s.values()) {
            assertThat(line.balance()).as(line.tenant().toString()).isEqualByComparingTo(line.lent()
                    .subtract(line.owed()));
            sum = sum.add(line.balance());
        }
        assertThat(sum.abs()).as("the group's balances sum to zero").isLessThanOrEqualTo(new BigDecimal("0.000002"));
    }

    @Test
    void innerTenantsHaveUnchargedLinesAndEverySiblingGroupSumsToZero() {
        var l = ledger(0.5, ResourceVector.of(10, 10240, 0), "a.x", "a.y", "b");
        start(l, "t1", "root.a.x", ResourceVector.of(8, 0, 0), 0); // a borrows 0.3 from b; x borrows 0.55 within a
        var s = byTenant(Chargeback.statement("c", FIRST_HOUR, l.closePeriod(HOUR),
                ChargebackConfig.usage(ONE_PER_VCORE_HOUR)));
        TenantStatement a = s.get("root.a");
        assertThat(a.inner()).isTrue();
        assertThat(a.charge()).isEqualByComparingTo("0");
        assertThat(a.borrowed()).isEqualByComparingTo("0.3");
        assertThat(a.owed()).isEqualByComparingTo("0.3");
        assertThat(s.get("root.b").lent()).isEqualByComparingTo("0.3");
        assertThat(a.balance().add(s.get("root.b").balance())).isEqualByComparingTo("0");
        assertThat(s.get("root.a.x").balance().add(s.get("root.a.y").balance())).isEqualByComparingTo("0");
        assertThat(s.get("root.a.y").lent()).as("y's unused quarter, all matched").isEqualByComparingTo("0.25");
        assertThat(s.get("root.a.x").inner()).isFalse();
        assertThat(s).doesNotContainKey("root");
    }

    @Test
    void aUsageChargeCountsWhatIsHeldAtEachInstantNotThePeriodsRatio() {
        // a holds 8 of 10 vcores for half an hour (g = 0.8 > S = 0.5, g'/g = 0.5/0.8 with eta 0), then a node doubles
        // the capacity: the same 8 vcores are g = 0.4 <= S, all counted. Per instant: 8 x 0.5 x 0.625 + 8 x 0.5 = 6.5;
        // the period's ratio F / A = 0.45 / 0.6 would give 8 x 0.75 = 6.
        var l = ledger(0.0, ResourceVector.of(10, 10240, 0), "a", "b");
        start(l, "t1", "root.a", ResourceVector.of(8, 0, 0), 0);
        l.apply(new LedgerEvent.CapacityChanged("c", ResourceVector.of(20, 20480, 0), HOUR / 2));
        var s = byTenant(Chargeback.statement("c", FIRST_HOUR, l.closePeriod(HOUR),
                ChargebackConfig.usage(ONE_PER_VCORE_HOUR)));
        assertThat(s.get("root.a").charge()).isEqualByComparingTo("6.50");
    }

    @Test
    void theTotalChargeIncludesAdjustmentLines() {
        var l = ledger(1.0, ResourceVector.of(10, 10240, 0), "a");
        start(l, "t1", "root.a", ResourceVector.of(1, 0, 0), 0);
        Statement s = Chargeback.statement("c", FIRST_HOUR, l.closePeriod(HOUR),
                ChargebackConfig.usage(ONE_PER_VCORE_HOUR));
        TenantStatement line = s.lines().get(0);
        Statement adjusted = new Statement("c", FIRST_HOUR, s.model(), List.of(new TenantStatement(line.tenant(),
                false, line.resourceSeconds(), line.counted(), line.actual(), line.entitled(), line.rho(),
                line.lent(), line.borrowed(), line.owed(), line.balance(), line.charge(),
                List.of(new AdjustmentLine("prev", line.tenant(), new BigDecimal("0.89"), "late events")))));
        assertThat(adjusted.totalCharge()).isEqualByComparingTo("1.89");
    }
}
