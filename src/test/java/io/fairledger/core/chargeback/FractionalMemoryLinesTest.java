package io.fairledger.core.chargeback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

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

/**
 * Issue #32 item 1 through the core: tasks of 600.5 MB and of 0.001 MB (a Mesos task's three decimals, held as
 * thousandths of a MB) in usage, lending, rho and the charge per GB-hour, every value worked out by hand.
 */
class FractionalMemoryLinesTest {

    private static final long HOUR = 3_600_000L;

    @Test
    void aFractionOfAMegabyteCountsInEveryValueOfTheLine() {
        // 1000 MB, tenants a and b of equal weight (S = 0.5 each), borrowing counted at eta = 0.5
        var ledger = new ClusterLedger(ClusterConfig
                .defaults("c", 0, ResourceVector.of(10, 1000, 0), List.of(TenantConfig.of("a", 1),
                        TenantConfig.of("b", 1)))
                .withMemory(new MemoryMode.Full()).withDiscountRate(0.5));
        ledger.apply(
                new LedgerEvent.TaskStarted("c", "ta", TenantPath.parse("a"), "", new ResourceVector(0, 600_500, 0),
                        0));
        ledger.apply(new LedgerEvent.TaskStarted("c", "tb", TenantPath.parse("b"), "", new ResourceVector(0, 1, 0), 0));
        // 1024 per GB-hour is 1 per MB-hour
        var plan = new PricePlan("std", BigDecimal.ZERO, new BigDecimal("1024"), BigDecimal.ZERO);
        Statement statement = Chargeback.statement("c", new Period("0", 0, HOUR), ledger.closePeriod(HOUR),
                ChargebackConfig.usage(plan));
        Map<String, TenantStatement> lines = statement.lines().stream()
                .collect(Collectors.toMap(l -> l.tenant().toString(), Function.identity()));

        // a holds 0.6005 of the memory against a share of 0.5: it borrows 0.1005, counted at half;
        // b holds 0.000001 and leaves 0.499999 unused, more than a borrows, so M = B = 0.1005
        TenantStatement a = lines.get("root.a");
        assertThat(a.resourceSeconds().get(1).toPlainString()).isEqualTo("2161800.000");
        assertThat(a.actual()).isEqualByComparingTo("0.600500");
        assertThat(a.counted()).isEqualByComparingTo("0.550250");
        assertThat(a.entitled()).isEqualByComparingTo("0.500000");
        assertThat(a.rho().value()).isCloseTo(1.201, within(1e-12));
        assertThat(a.borrowed()).isEqualByComparingTo("0.100500");
        assertThat(a.owed()).isEqualByComparingTo("0.100500");
        assertThat(a.balance()).isEqualByComparingTo("-0.100500");
        // counted MB-hours: 600.5 x 0.55025 / 0.6005 = 550.25, at 1 per MB-hour
        assertThat(a.charge()).isEqualByComparingTo("550.25");

        TenantStatement b = lines.get("root.b");
        assertThat(b.resourceSeconds().get(1).toPlainString()).isEqualTo("3.600");
        assertThat(b.actual()).isEqualByComparingTo("0.000001");
        assertThat(b.entitled()).isEqualByComparingTo("0.000001");
        assertThat(b.rho().value()).isCloseTo(1.0, within(1e-12));
        assertThat(b.lent()).isEqualByComparingTo("0.100500");
        assertThat(b.balance()).isEqualByComparingTo("0.100500");
        // 0.001 MB-hours at 1 per MB-hour is 0.001: 0.00 at the currency's two decimals
        assertThat(b.charge()).isEqualByComparingTo("0.00");
    }

    @Test
    void mbSecondsShowAsManyDecimalsAsAFractionOfAMegabyteNeeds() {
        var ledger = new ClusterLedger(ClusterConfig.defaults("c", 0, ResourceVector.of(10, 1000, 0),
                List.of(TenantConfig.of("a", 1))).withMemory(new MemoryMode.Full()));
        ledger.apply(new LedgerEvent.TaskStarted("c", "t", TenantPath.parse("a"), "", new ResourceVector(0, 600_500, 0),
                0));
        ledger.apply(new LedgerEvent.TaskFinished("c", "t", 1));
        var plan = new PricePlan("std", BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO);
        Statement statement = Chargeback.statement("c", new Period("0", 0, HOUR), ledger.closePeriod(HOUR),
                ChargebackConfig.usage(plan));
        // 600.5 MB for one millisecond
        assertThat(statement.lines().stream().filter(l -> l.tenant().toString().equals("root.a")).findFirst()
                .orElseThrow().resourceSeconds().get(1).toPlainString()).isEqualTo("0.6005");
    }
}
