package io.fairledger.core.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

import io.fairledger.core.chargeback.Chargeback;
import io.fairledger.core.chargeback.ChargebackConfig;
import io.fairledger.core.chargeback.Period;
import io.fairledger.core.chargeback.Statement;
import io.fairledger.core.chargeback.TenantStatement;
import io.fairledger.core.model.ClusterConfig;
import io.fairledger.core.model.MemoryMode;
import io.fairledger.core.model.PricePlan;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantConfig;
import io.fairledger.core.model.TenantPath;

/**
 * Every resource-second is billed (docs/domain.md section 2, "Own lines"): on random trees whose tenants run tasks at
 * every level and gain children while they run, the charged lines' resource-seconds sum to the cluster's, and their
 * charges to the cluster's usage priced.
 */
class OwnLinesPropertiesTest {

    private static final List<String> PATHS = List.of("a", "a/b", "a/b/c", "a/d", "e", "e/f", "g");
    private static final ChargebackConfig ONE_PER_VCORE_HOUR = ChargebackConfig
            .usage(new PricePlan("default", BigDecimal.ONE, BigDecimal.ZERO, BigDecimal.ZERO));

    @Property(tries = 100)
    void chargedLinesSumToTheClustersUsage(@ForAll long seed, @ForAll @IntRange(min = 1, max = 150) int count,
            @ForAll boolean configured) {
        Random rnd = new Random(seed);
        List<TenantConfig> tenants = configured ? List.of(TenantConfig.of("a", 2), TenantConfig.of("e", 1)) : List.of();
        ClusterConfig config = ClusterConfig.defaults("c", 0, ResourceVector.of(40, 40960, 0), tenants)
                .withMemory(new MemoryMode.Full());
        var ledger = new ClusterLedger(config);
        List<String> running = new ArrayList<>();
        List<Statement> statements = new ArrayList<>();
        long t = 0;
        long periodStart = 0;
        for (int i = 0; i < count; i++) {
            t += rnd.nextInt(1000);
            if (rnd.nextInt(10) == 0 && t > periodStart) {
                statements.add(Chargeback.statement("c", new Period("p" + i, periodStart, t), ledger.closePeriod(t),
                        ONE_PER_VCORE_HOUR));
                periodStart = t;
            }
            if (running.isEmpty() || rnd.nextInt(3) > 0) {
                String id = "t" + i;
                ledger.apply(
                        new LedgerEvent.TaskStarted("c", id, TenantPath.parse(PATHS.get(rnd.nextInt(PATHS.size()))),
                                "", ResourceVector.of(1 + rnd.nextInt(4), 256L * rnd.nextInt(4), 0), t));
                running.add(id);
            } else {
                ledger.apply(new LedgerEvent.TaskFinished("c", running.remove(rnd.nextInt(running.size())), t));
            }
            assertBalancesSumToZero(ledger.accounts(t));
        }
        long end = t + 1 + rnd.nextInt(1000);
        statements.add(Chargeback.statement("c", new Period("last", periodStart, end), ledger.closePeriod(end),
                ONE_PER_VCORE_HOUR));

        BigDecimal[] clusterSeconds = {BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO};
        BigDecimal[] chargedSeconds = {BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO};
        BigDecimal charged = BigDecimal.ZERO;
        int chargedLines = 0;
        for (Statement s : statements) {
            for (TenantStatement l : s.lines()) {
                for (int r = 0; r < 3; r++) {
                    if (l.tenant().depth() == 1) {
                        clusterSeconds[r] = clusterSeconds[r].add(l.resourceSeconds().get(r));
                    }
                    if (!l.inner()) {
                        chargedSeconds[r] = chargedSeconds[r].add(l.resourceSeconds().get(r));
                    }
                }
                if (!l.inner()) {
                    charged = charged.add(l.charge());
                    chargedLines++;
                }
            }
        }
        assertThat(chargedSeconds).containsExactly(clusterSeconds);
        BigDecimal priced = clusterSeconds[0].divide(BigDecimal.valueOf(3600), MathContext.DECIMAL128);
        // each line's charge is rounded to the cent: the sum is within half a cent per line of the exact price
        assertThat(charged.subtract(priced).abs().doubleValue()).isLessThanOrEqualTo(0.005 * chargedLines + 1e-12);
    }

    private static void assertBalancesSumToZero(List<TenantAccount> accounts) {
        Map<TenantPath, Double> sums = new HashMap<>();
        for (TenantAccount a : accounts) {
            if (!a.path().isRoot()) {
                sums.merge(a.path().parent(), a.period().balance(), Double::sum);
            }
        }
        sums.forEach((parent, sum) -> assertThat(sum).as("balances below %s", parent).isCloseTo(0, within(1e-6)));
    }
}
