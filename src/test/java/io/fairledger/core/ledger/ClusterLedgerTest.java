package io.fairledger.core.ledger;

import static io.fairledger.core.ledger.LedgerFixtures.CLUSTER;
import static io.fairledger.core.ledger.LedgerFixtures.TEN_VCORES;
import static io.fairledger.core.ledger.LedgerFixtures.demand;
import static io.fairledger.core.ledger.LedgerFixtures.finish;
import static io.fairledger.core.ledger.LedgerFixtures.full;
import static io.fairledger.core.ledger.LedgerFixtures.p;
import static io.fairledger.core.ledger.LedgerFixtures.start;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.math.BigInteger;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.fairledger.core.ledger.LedgerEvent.CapacityChanged;
import io.fairledger.core.model.MemoryMode;
import io.fairledger.core.model.ParPolicy;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantConfig;

/** Hand-worked ledger cases; every expected number is computed in the comment beside it. */
class ClusterLedgerTest {

    private static final double EPS = 1e-9;

    @Test
    void integratesATaskExactly() {
        var ledger = new ClusterLedger(full(TenantConfig.of("a", 1), TenantConfig.of("b", 1)));
        ledger.apply(start("t1", "a", 4, 0));
        ledger.apply(finish("t1", 1000));
        var a = ledger.account(p("a"), 2000);
        // g = 4/10 for 1000 ms
        assertThat(a.period().actual()).isCloseTo(400, within(EPS));
        assertThat(a.period().resourceMs().get(0)).isEqualTo(BigInteger.valueOf(4000L * 1000));
        // S = 0.5, demand = held (no demand event) -> e = 0.4 while running
        assertThat(a.period().entitled()).isCloseTo(400, within(EPS));
        assertThat(a.now().runningTasks()).isZero();
    }

    @ParameterizedTest
    @CsvSource({"MAX, 600", "MIN, 200", "ZERO, 0"})
    void earlyBirdTopUpFollowsThePolicy(ParPolicy policy, double expectedPhi) {
        var config = full(TenantConfig.of("a", 1), TenantConfig.of("b", 1), TenantConfig.of("c", 1)).withPar(policy);
        var ledger = new ClusterLedger(config);
        ledger.apply(start("a1", "a", 2, 0)); // g = 0.2 -> F_a(1000) = 200
        ledger.apply(start("b1", "b", 6, 0)); // g = 0.6, eta = 1 -> F_b(1000) = 600
        ledger.apply(demand("c", 1, 1000)); // c arrives after a and b
        assertThat(ledger.account(p("c"), 1000).memory().par()).isCloseTo(expectedPhi, within(EPS));
        // a and b arrived at the same instant: neither is earlier than the other
        assertThat(ledger.account(p("b"), 1000).memory().par()).isZero();
    }

    @Test
    void aSecondActivationInTheSameRoundGetsNoNewTopUp() {
        var ledger = new ClusterLedger(full(TenantConfig.of("a", 1), TenantConfig.of("c", 1)));
        ledger.apply(start("a1", "a", 2, 0));
        ledger.apply(start("c1", "c", 1, 1000)); // phi_c = F_a = 200
        ledger.apply(finish("c1", 1500));
        ledger.apply(start("c2", "c", 1, 3000));
        assertThat(ledger.account(p("c"), 3000).memory().par()).isCloseTo(200, within(EPS));
    }

    @Test
    void quantumTopsUpYoungTasksForSchedulingOnly() {
        var config = full(TenantConfig.of("a", 1), TenantConfig.of("b", 1)).withRootQuantum(1000);
        var ledger = new ClusterLedger(config);
        ledger.apply(start("t1", "a", 2, 0)); // size 0.2, quantum 1000 ms
        var at300 = ledger.account(p("a"), 300);
        assertThat(at300.memory().quantumTopUp()).isCloseTo((1000 - 300) * 0.2, within(EPS));
        assertThat(at300.memory().schedulingValue()).isCloseTo(300 * 0.2 + 700 * 0.2, within(EPS));
        assertThat(at300.period().actual()).isCloseTo(60, within(EPS));
        // the parent counts its subtree's young tasks too
        assertThat(ledger.account(p("root"), 300).memory().quantumTopUp()).isCloseTo(140, within(EPS));
        ledger.apply(finish("t1", 500));
        assertThat(ledger.account(p("a"), 600).memory().quantumTopUp()).isZero();
    }

    @Test
    void quantumEndsWhenTheTaskHasRunItsQuantum() {
        var ledger = new ClusterLedger(full(TenantConfig.of("a", 1)).withRootQuantum(1000));
        ledger.apply(start("t1", "a", 2, 0));
        assertThat(ledger.account(p("a"), 1000).memory().quantumTopUp()).isZero();
        assertThat(ledger.account(p("a"), 1500).memory().counted()).isCloseTo(300, within(EPS));
    }

    @Test
    void adaptiveQuantumBecomesTheMeanCompletedDuration() {
        var config = full(TenantConfig.of("a", 1)).withRootQuantum(10_000);
        var ledger = new ClusterLedger(config);
        ledger.apply(start("t1", "a", 1, 0));
        ledger.apply(finish("t1", 200)); // completed in 200 ms
        ledger.apply(start("t2", "a", 1, 1000)); // refresh at 1000: app, leaf and root quantum become 200
        assertThat(ledger.account(p("a"), 1100).memory().quantumTopUp()).isCloseTo(100 * 0.1, within(EPS));
    }

    @Test
    void roundBoundaryCutsARunningTask() {
        var config = full(TenantConfig.of("a", 1), TenantConfig.of("b", 1)).withMemory(new MemoryMode.Rounds(1000, 0));
        var ledger = new ClusterLedger(config);
        ledger.apply(start("t1", "a", 5, 500)); // g = 0.5
        ledger.apply(finish("t1", 1500));
        var a = ledger.account(p("a"), 1500);
        // eq. 15: in round [1000, 2000) the task counts from the boundary: 0.5 x 500
        assertThat(a.memory().actual()).isCloseTo(250, within(EPS));
        // the bill is not cut by rounds: 0.5 x 1000
        assertThat(a.period().actual()).isCloseTo(500, within(EPS));
    }

    @Test
    void aTenantActiveAcrossABoundaryArrivesAtTheBoundary() {
        var config = full(TenantConfig.of("a", 1), TenantConfig.of("b", 1)).withMemory(new MemoryMode.Rounds(1000, 0));
        var ledger = new ClusterLedger(config);
        ledger.apply(start("a1", "a", 5, 500));
        ledger.apply(start("b1", "b", 1, 1200)); // a arrived at 1000 (eq. 14) with F_a = 0.5 x 200 = 100
        assertThat(ledger.account(p("b"), 1200).memory().par()).isCloseTo(100, within(EPS));
    }

    @Test
    void capacityChangeMidPeriodChangesTheShareButNotTheResourceSeconds() {
        var ledger = new ClusterLedger(full(TenantConfig.of("a", 1)));
        ledger.apply(start("t1", "a", 5, 0));
        ledger.apply(new CapacityChanged(CLUSTER, ResourceVector.of(20, 20480, 0), 1000));
        ledger.apply(finish("t1", 2000));
        var a = ledger.account(p("a"), 2000);
        // 0.5 x 1000 + 0.25 x 1000
        assertThat(a.period().actual()).isCloseTo(750, within(EPS));
        assertThat(a.period().resourceMs().get(0)).isEqualTo(BigInteger.valueOf(5000L * 2000));
    }

    @Test
    void weightZeroTenantOnlyBorrows() {
        var config = full(TenantConfig.of("a", 1), TenantConfig.of("z", 0)).withDiscountRate(0.5);
        var ledger = new ClusterLedger(config);
        ledger.apply(start("t1", "z", 2, 0));
        var z = ledger.account(p("z"), 1000);
        var a = ledger.account(p("a"), 1000);
        assertThat(z.share()).isZero();
        assertThat(z.period().entitled()).isZero();
        assertThat(z.period().actual()).isCloseTo(200, within(EPS));
        // all of z's usage is borrowed and counted at eta = 0.5
        assertThat(z.period().counted()).isCloseTo(100, within(EPS));
        assertThat(z.period().borrowed()).isCloseTo(200, within(EPS));
        assertThat(z.period().balance()).isCloseTo(-200, within(EPS));
        // a, idle with share 1, lent it all
        assertThat(a.period().lent()).isCloseTo(200, within(EPS));
        assertThat(a.period().balance()).isCloseTo(200, within(EPS));
    }

    @Test
    void threeLevelTreeLendsLevelByLevel() {
        var ledger = new ClusterLedger(full(TenantConfig.of("root.x", 1), TenantConfig.of("root.w", 1),
                TenantConfig.of("root.x.y", 3), TenantConfig.of("root.x.v", 1), TenantConfig.of("root.x.y.z", 1),
                TenantConfig.of("root.x.y.q", 1)));
        assertThat(ledger.account(p("root.x.y"), 0).share()).isCloseTo(0.375, within(EPS));
        assertThat(ledger.account(p("x/y/z"), 0).share()).isCloseTo(0.1875, within(EPS));
        ledger.apply(start("t1", "x/y/z", 5, 0)); // g = 0.5 for z, y and x
        ledger.apply(finish("t1", 1000));
        // level 3: z borrows 0.3125 but its sibling q can lend only 0.1875; y borrows the rest one level up
        assertThat(ledger.account(p("root.x.y.q"), 1000).period().balance()).isCloseTo(187.5, within(EPS));
        assertThat(ledger.account(p("root.x.y.z"), 1000).period().balance()).isCloseTo(-187.5, within(EPS));
        assertThat(ledger.account(p("root.x.y.z"), 1000).period().borrowed()).isCloseTo(312.5, within(EPS));
        // level 2: y borrows 0.125 from v
        assertThat(ledger.account(p("root.x.v"), 1000).period().balance()).isCloseTo(125, within(EPS));
        assertThat(ledger.account(p("root.x.y"), 1000).period().balance()).isCloseTo(-125, within(EPS));
        // level 1: x holds exactly its share
        assertThat(ledger.account(p("root.x"), 1000).period().balance()).isCloseTo(0, within(EPS));
        assertThat(ledger.account(p("root.w"), 1000).period().balance()).isCloseTo(0, within(EPS));
        assertThat(ledger.account(p("root"), 1000).period().actual()).isCloseTo(500, within(EPS));
    }

    @Test
    void duplicateStartAndUnknownFinishAreIgnoredAndCounted() {
        var ledger = new ClusterLedger(full(TenantConfig.of("a", 1)));
        assertThat(ledger.apply(start("t1", "a", 2, 0))).isEqualTo(Outcome.APPLIED);
        assertThat(ledger.apply(start("t1", "a", 8, 100))).isEqualTo(Outcome.IGNORED_DUPLICATE_START);
        assertThat(ledger.apply(finish("nope", 200))).isEqualTo(Outcome.IGNORED_UNKNOWN_TASK);
        assertThat(ledger.apply(finish("t1", 1000))).isEqualTo(Outcome.APPLIED);
        assertThat(ledger.apply(finish("t1", 1100))).isEqualTo(Outcome.IGNORED_UNKNOWN_TASK);
        assertThat(ledger.apply(start("t2", "a", 2, 500))).isEqualTo(Outcome.REJECTED_LATE);
        assertThat(ledger.account(p("a"), 2000).period().actual()).isCloseTo(200, within(EPS));
        assertThat(ledger.ignoredEvents().get(Outcome.IGNORED_UNKNOWN_TASK)).isEqualTo(2);
        assertThat(ledger.ignoredEvents().get(Outcome.REJECTED_LATE)).isEqualTo(1);
    }

    @Test
    void overflowingStartIsRejectedBeforeAnyChange() {
        var ledger = new ClusterLedger(full(TenantConfig.of("a", 1)));
        ledger.apply(new LedgerEvent.TaskStarted(CLUSTER, "big", p("a"), "",
                new ResourceVector(Long.MAX_VALUE - 1, 0, 0), 0));
        org.assertj.core.api.Assertions
                .assertThatThrownBy(() -> ledger.apply(new LedgerEvent.TaskStarted(CLUSTER, "more", p("a"), "",
                        new ResourceVector(10, 0, 0), 10)))
                .isInstanceOf(ArithmeticException.class);
        assertThat(ledger.runningTasks()).isEqualTo(1);
        assertThat(ledger.clock()).isZero();
    }

    @Test
    void unknownTenantIsCreatedWithDefaultWeight() {
        var ledger = new ClusterLedger(full(TenantConfig.of("a", 1)));
        ledger.apply(start("t1", "root.new.leaf", 1, 100));
        assertThat(ledger.account(p("new"), 100).share()).isCloseTo(0.5, within(EPS));
        assertThat(ledger.account(p("new/leaf"), 100).share()).isCloseTo(0.5, within(EPS));
    }

    @Test
    void decayHalvesOldUsage() {
        var config = full(TenantConfig.of("a", 1)).withMemory(new MemoryMode.Decay(1000));
        var ledger = new ClusterLedger(config);
        ledger.apply(new LedgerEvent.TaskStarted(CLUSTER, "t1", p("a"), "", TEN_VCORES, 0));
        ledger.apply(finish("t1", 1000));
        double atEnd = 1000 / Math.log(2) * 0.5;
        assertThat(ledger.account(p("a"), 1000).memory().actual()).isCloseTo(atEnd, within(1e-6));
        assertThat(ledger.account(p("a"), 2000).memory().actual()).isCloseTo(atEnd / 2, within(1e-6));
        assertThat(ledger.account(p("a"), 2000).period().actual()).isCloseTo(1000, within(EPS));
    }

    @Test
    void closingAPeriodRestartsPeriodIntegralsOnly() {
        var ledger = new ClusterLedger(full(TenantConfig.of("a", 1)));
        ledger.apply(start("t1", "a", 5, 0));
        List<TenantAccount> closed = ledger.closePeriod(1000);
        assertThat(closed.stream().filter(x -> x.path().equals(p("a"))).findFirst().orElseThrow().period().actual())
                .isCloseTo(500, within(EPS));
        var a = ledger.account(p("a"), 2000);
        assertThat(a.period().actual()).isCloseTo(500, within(EPS));
        assertThat(a.memory().actual()).isCloseTo(1000, within(EPS));
        assertThat(ledger.apply(finish("t1", 999))).isEqualTo(Outcome.REJECTED_LATE);
    }

    @Test
    void demandSetsEntitlement() {
        var ledger = new ClusterLedger(full(TenantConfig.of("a", 1), TenantConfig.of("b", 1)));
        ledger.apply(demand("a", 8, 0)); // d = 0.8, S = 0.5 -> e = 0.5
        assertThat(ledger.account(p("a"), 1000).period().entitled()).isCloseTo(500, within(EPS));
        assertThat(ledger.account(p("a"), 1000).period().actual()).isZero();
    }

    @Test
    void parentConfiguredAfterItsChildKeepsItsOwnSettings() {
        var parent = new TenantConfig(p("q"), 3, java.util.OptionalDouble.of(0.25), "gold");
        var ledger = new ClusterLedger(full(TenantConfig.of("q.leaf", 1), parent, TenantConfig.of("r", 1)));
        var q = ledger.account(p("q"), 0);
        assertThat(q.discountRate()).isEqualTo(0.25);
        assertThat(q.pricePlan()).isEqualTo("gold");
        assertThat(q.share()).isCloseTo(0.75, within(EPS));
    }

    @Test
    void weightChangeMidPeriodMovesTheEntitlement() {
        var ledger = new ClusterLedger(full(TenantConfig.of("a", 1), TenantConfig.of("b", 1)));
        ledger.apply(demand("a", 10, 0)); // d = 1, S = 0.5 -> e = 0.5 for 1000 ms
        ledger.apply(new LedgerEvent.WeightChanged(CLUSTER, p("a"), 3, 1000)); // S = 0.75 from now on
        assertThat(ledger.account(p("a"), 2000).period().entitled()).isCloseTo(500 + 750, within(EPS));
    }
}
