package io.fairledger.core.ledger;

import static io.fairledger.core.ledger.LedgerFixtures.CLUSTER;
import static io.fairledger.core.ledger.LedgerFixtures.TEN_VCORES;
import static io.fairledger.core.ledger.LedgerFixtures.finish;
import static io.fairledger.core.ledger.LedgerFixtures.full;
import static io.fairledger.core.ledger.LedgerFixtures.p;
import static io.fairledger.core.ledger.LedgerFixtures.start;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;

import org.junit.jupiter.api.Test;

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

/** Own lines and tasks started before the registration (docs/domain.md sections 2 and 3), on hand-computed numbers. */
class OwnLinesTest {

    private static final long HOUR = 3_600_000L;
    private static final ChargebackConfig ONE_PER_VCORE_HOUR = ChargebackConfig
            .usage(new PricePlan("default", BigDecimal.ONE, BigDecimal.ZERO, BigDecimal.ZERO));

    @Test
    void aParentRolesOwnTasksAreBilledOnItsOwnLine() {
        var ledger = new ClusterLedger(full(TenantConfig.of("analytics", 1), TenantConfig.of("analytics/etl", 1)));
        ledger.apply(start("own", "analytics", 7, 0));
        ledger.apply(start("child", "analytics/etl", 2, 0));

        TenantAccount own = ledger.account(p("analytics").ownLine(), HOUR);
        TenantAccount etl = ledger.account(p("analytics/etl"), HOUR);
        TenantAccount analytics = ledger.account(p("analytics"), HOUR);
        // own line: weight 1 beside etl's 1, so S = 1 x 1/2; it holds 0.7, borrows 0.2 that etl (0.3 unused) lends
        assertThat(own.share()).isEqualTo(0.5);
        assertThat(own.period().resourceMs()).containsExactly(BigInteger.valueOf(7000L * HOUR), BigInteger.ZERO,
                BigInteger.ZERO);
        assertThat(own.period().actual()).isCloseTo(0.7 * HOUR, within(1e-6));
        assertThat(own.period().entitled()).isCloseTo(0.5 * HOUR, within(1e-6));
        assertThat(own.period().borrowedFromSiblings()).isCloseTo(0.2 * HOUR, within(1e-6));
        assertThat(etl.period().lent()).isCloseTo(0.2 * HOUR, within(1e-6));
        assertThat(etl.period().resourceMs().get(0)).isEqualTo(BigInteger.valueOf(2000L * HOUR));
        assertThat(analytics.period().resourceMs().get(0)).isEqualTo(BigInteger.valueOf(9000L * HOUR));

        Statement s = Chargeback.statement(CLUSTER, new Period("p", 0, HOUR), ledger.closePeriod(HOUR),
                ONE_PER_VCORE_HOUR);
        assertThat(s.lines()).extracting(l -> l.tenant().toString(), TenantStatement::inner, TenantStatement::own,
                TenantStatement::charge)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("root.analytics", true, false, money("0.00")),
                        org.assertj.core.groups.Tuple.tuple("root.analytics.(own)", false, true, money("7.00")),
                        org.assertj.core.groups.Tuple.tuple("root.analytics.etl", false, false, money("2.00")));
        assertThat(s.lines().get(1).resourceSeconds().get(0)).isEqualByComparingTo("25200");
        assertThat(s.lines().get(1).rho().value()).isCloseTo(1.4, within(1e-12));
    }

    @Test
    void aLeafThatGainsAChildHandsItsPeriodToItsOwnLine() {
        var ledger = new ClusterLedger(full(TenantConfig.of("a", 1)));
        ledger.apply(start("t1", "a", 4, 0));
        ledger.apply(start("t2", "a/x", 2, HOUR));
        ledger.apply(finish("t1", 2 * HOUR));

        TenantAccount own = ledger.account(p("a").ownLine(), 2 * HOUR);
        TenantAccount x = ledger.account(p("a/x"), 2 * HOUR);
        TenantAccount a = ledger.account(p("a"), 2 * HOUR);
        // t1 runs 2 h at 0.4 on a, then on a's own line: all of it on the own line
        assertThat(own.period().resourceMs().get(0)).isEqualTo(BigInteger.valueOf(4000L * 2 * HOUR));
        assertThat(own.period().actual()).isCloseTo(0.8 * HOUR, within(1e-6));
        // entitled: min(0.4, S_a = 1) the first hour, min(0.4, 0.5) the second
        assertThat(own.period().entitled()).isCloseTo(0.8 * HOUR, within(1e-6));
        assertThat(own.now().held()).isEqualTo(ResourceVector.ZERO);
        assertThat(own.now().runningTasks()).isZero();
        assertThat(x.period().resourceMs().get(0)).isEqualTo(BigInteger.valueOf(2000L * HOUR));
        assertThat(a.period().resourceMs().get(0)).isEqualTo(BigInteger.valueOf(10_000L * HOUR));
        assertThat(a.now().held()).isEqualTo(ResourceVector.of(2, 0, 0));
    }

    @Test
    void aLeafThatNeverHeldAnythingGainsNoOwnLine() {
        var ledger = new ClusterLedger(full(TenantConfig.of("a", 1)));
        ledger.apply(start("t", "a/x", 2, HOUR));
        assertThat(ledger.tenants()).containsExactly(p("root"), p("a"), p("a/x"));
    }

    @Test
    void aContainerCreatedBeforeTheRegistrationCountsFromIt() {
        long registration = 24 * HOUR;
        var ledger = new ClusterLedger(ClusterConfig.defaults(CLUSTER, registration, TEN_VCORES,
                List.of(TenantConfig.of("a", 1))).withMemory(new MemoryMode.Full()));
        assertThat(ledger.apply(start("c1", "a", 10, registration - HOUR / 2))).isEqualTo(Outcome.APPLIED);
        assertThat(ledger.apply(finish("c1", registration + HOUR / 2))).isEqualTo(Outcome.APPLIED);
        // 10 vcores from 00:00 to 00:30: 18,000 vcore-s
        assertThat(ledger.account(p("a"), registration + HOUR).period().resourceSeconds(0).movePointLeft(3))
                .isEqualByComparingTo("18000");
    }

    @Test
    void aContainerThatEndedBeforeTheRegistrationCountsNothing() {
        long registration = 24 * HOUR;
        var ledger = new ClusterLedger(ClusterConfig.defaults(CLUSTER, registration, TEN_VCORES,
                List.of(TenantConfig.of("a", 1))).withMemory(new MemoryMode.Full()));
        ledger.apply(start("c1", "a", 10, registration - HOUR));
        ledger.apply(finish("c1", registration - HOUR / 2));
        assertThat(ledger.runningTasks()).isZero();
        assertThat(ledger.account(p("a"), registration + HOUR).period().resourceMs().get(0)).isZero();
    }

    private static BigDecimal money(String v) {
        return new BigDecimal(v);
    }
}
