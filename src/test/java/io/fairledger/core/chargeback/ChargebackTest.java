package io.fairledger.core.chargeback;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
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

class ChargebackTest {

    private static final long HOUR = 3_600_000L;
    private static final Period FIRST_HOUR = new Period("h0", 0, HOUR);

    private static ClusterLedger ledger(double eta, String... tenants) {
        List<TenantConfig> ts = java.util.Arrays.stream(tenants).map(t -> TenantConfig.of(t, 1)).toList();
        return new ClusterLedger(ClusterConfig.defaults("c", 0, ResourceVector.of(10, 10240, 0), ts)
                .withMemory(new MemoryMode.Full()).withDiscountRate(eta));
    }

    private static void startAt(ClusterLedger l, String task, String tenant, long vcores, long from) {
        l.apply(new LedgerEvent.TaskStarted("c", task, TenantPath.parse(tenant), "", ResourceVector.of(vcores, 0, 0),
                from));
    }

    private static Map<String, TenantStatement> byTenant(Statement s) {
        return s.lines().stream().collect(Collectors.toMap(l -> l.tenant().segments().get(0), Function.identity()));
    }

    @Test
    void usageChargesPriceTimesCountedUsage() {
        var plan = new PricePlan("std", new BigDecimal("0.10"), BigDecimal.ZERO, BigDecimal.ZERO);
        var l = ledger(0.5, "a", "b");
        startAt(l, "t1", "a", 10, 0); // g = 1, S = 0.5: counted 0.5 + 0.5 x 0.5 = 0.75 of actual
        startAt(l, "t2", "b", 0, 0);
        var s = Chargeback.statement("c", FIRST_HOUR, l.closePeriod(HOUR), ChargebackConfig.usage(plan));
        // 10 vcore-hours x 0.10 x 0.75
        assertThat(byTenant(s).get("a").charge()).isEqualByComparingTo("0.75");
        assertThat(byTenant(s).get("a").resourceSeconds().get(0)).isEqualByComparingTo("36000"); // 10 vcore-hours
        assertThat(byTenant(s).get("b").charge()).isEqualByComparingTo("0.00");
        assertThat(byTenant(s).get("a").charge().scale()).isEqualTo(2);
    }

    @Test
    void groupBuySplitsTheCostAndSettlesBorrowingToZero() {
        var l = ledger(0.5, "a", "b", "c");
        startAt(l, "t1", "a", 10, 0); // a holds everything: borrows 2/3 of a capacity-hour; b and c lend 1/3 each
        var s = Chargeback.statement("c", FIRST_HOUR, l.closePeriod(HOUR),
                ChargebackConfig.groupBuy(new BigDecimal("100.00")));
        var t = byTenant(s);
        // base 33.34 / 33.33 / 33.33 (extra cent to the first path); a pays 0.5 x 100/h x 0.666667 h = 33.33,
        // credited 16.67 to b (tie broken by path) and 16.66 to c
        assertThat(t.get("a").charge()).isEqualByComparingTo("66.67");
        assertThat(t.get("b").charge()).isEqualByComparingTo("16.66");
        assertThat(t.get("c").charge()).isEqualByComparingTo("16.67");
        assertThat(s.totalCharge()).isEqualByComparingTo("100.00");
        assertThat(t.get("b").balance()).isEqualByComparingTo("0.333333");
    }

    @Test
    void groupBuyWithoutLendersChargesOnlyTheSplit() {
        var l = ledger(0.5, "a", "b");
        var s = Chargeback.statement("c", FIRST_HOUR, l.closePeriod(HOUR),
                ChargebackConfig.groupBuy(new BigDecimal("0.01")));
        assertThat(s.lines()).extracting(TenantStatement::charge).map(BigDecimal::toPlainString)
                .containsExactly("0.01", "0.00");
    }

    @Test
    void apportionSumsExactly() {
        var parts = Chargeback.apportion(new BigDecimal("10.00"),
                List.of(BigDecimal.ONE, BigDecimal.ONE, BigDecimal.ONE), List.of("x", "y", "z"), 2);
        assertThat(parts).extracting(BigDecimal::toPlainString).containsExactly("3.34", "3.33", "3.33");
    }

    @Test
    void lateEventsForAClosedPeriodBecomeAdjustmentsOnce() {
        var first = ledger(1, "a", "b");
        startAt(first, "t1", "a", 5, 0);
        var plan = new PricePlan("std", new BigDecimal("1.00"), BigDecimal.ZERO, BigDecimal.ZERO);
        var closed = Chargeback.statement("c", FIRST_HOUR, first.closePeriod(HOUR), ChargebackConfig.usage(plan));
        var corrected = ledger(1, "a", "b");
        startAt(corrected, "t1", "a", 5, 0);
        startAt(corrected, "late", "b", 2, HOUR / 2); // a late task of b in the closed hour
        var recomputed = Chargeback.statement("c", FIRST_HOUR, corrected.closePeriod(HOUR),
                ChargebackConfig.usage(plan));
        var period = new LateAdjustments.ClosedPeriod("h0", LateAdjustments.charges(closed),
                LateAdjustments.charges(recomputed));

        var due = LateAdjustments.due(List.of(period), List.of());
        assertThat(due).containsOnlyKeys("root.b");
        var line = due.get("root.b").get(0);
        assertThat(line.correctedPeriod()).isEqualTo("h0");
        assertThat(line.amount()).isEqualByComparingTo("1.00"); // 2 vcores x 0.5 h x 1.00
        assertThat(line.reason()).isEqualTo("late events for period h0");
        assertThat(closed.totalCharge()).as("the closed statement is unchanged").isEqualByComparingTo("5.00");

        var issued = new LateAdjustments.Issued("h0", "root.b", line.amount());
        assertThat(LateAdjustments.due(List.of(period), List.of(issued))).as("an adjustment is issued once")
                .isEmpty();
    }
}
