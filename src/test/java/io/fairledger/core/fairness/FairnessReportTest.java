package io.fairledger.core.fairness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.Test;

class FairnessReportTest {

    @Test
    void table1MemorylessEndsWithOneLoserAndOneWinner() {
        // MLRF in LTRF Table 1: A's entitlement min(demand, 50) per step is 20+40+50+50 = 160 and it got 160;
        // B's is 50 x 4 = 200 and it got 240
        var report = FairnessReport.of(List.of(new FairnessReport.Usage("A", 160, 160, 230),
                new FairnessReport.Usage("B", 240, 200, 320)));
        assertThat(report.degrees().get("A").value()).isCloseTo(1.0, within(1e-12));
        assertThat(report.degrees().get("B").value()).isCloseTo(1.2, within(1e-12));
        assertThat(report.sharingBenefit()).isCloseTo(0.2, within(1e-12));
        assertThat(report.sharingLoss()).isZero();
    }

    @Test
    void lossIsNegativeAndNoEntitlementIsReportedApart() {
        var report = FairnessReport.of(List.of(new FairnessReport.Usage("a", 50, 100, 100),
                new FairnessReport.Usage("z", 10, 0, 10), new FairnessReport.Usage("idle", 0, 0, 0)));
        assertThat(report.sharingLoss()).isCloseTo(-0.5, within(1e-12));
        assertThat(report.degrees().get("z").noEntitlement()).isTrue();
        assertThat(report.degrees().get("idle").value()).isEqualTo(1.0);
        // demand fractions 0.5 and 1.0 -> (1.5)^2 / (2 x 1.25) = 0.9
        assertThat(report.jainFairness()).isCloseTo(0.9, within(1e-12));
    }

    @Test
    void equalityComparesOnlyEqualDemands() {
        var report = FairnessReport.of(List.of(new FairnessReport.Usage("a", 10, 10, 100),
                new FairnessReport.Usage("b", 30, 10, 100), new FairnessReport.Usage("c", 5, 5, 7)));
        // class {a, b}: (40)^2 / (2 x 1000) = 0.8; class {c}: 1 -> (2 x 0.8 + 1) / 3
        assertThat(report.equality()).isCloseTo((2 * 0.8 + 1) / 3, within(1e-12));
    }

    @Test
    void fromLedgerAccountsOfTwoTenants() {
        var ledger = new io.fairledger.core.ledger.ClusterLedger(io.fairledger.core.model.ClusterConfig
                .defaults("c", 0, io.fairledger.core.model.ResourceVector.of(10, 0, 0),
                        List.of(io.fairledger.core.model.TenantConfig.of("a", 1),
                                io.fairledger.core.model.TenantConfig.of("b", 1))));
        ledger.apply(new io.fairledger.core.ledger.LedgerEvent.TaskStarted("c", "t", io.fairledger.core.model.TenantPath
                .parse("a"), "", io.fairledger.core.model.ResourceVector.of(8, 0, 0), 0));
        var leaves = ledger.accounts(1000).subList(1, 3);
        var report = FairnessReport.ofPeriod(leaves);
        // a holds 0.8 with S = 0.5 and no pending demand: e = min(0.8, 0.5) -> rho = 0.8 / 0.5
        assertThat(report.degrees().get("root.a").value()).isCloseTo(1.6, within(1e-12));
        assertThat(report.degrees().get("root.b").value()).isEqualTo(1.0);
        assertThat(report.sharingBenefit()).isCloseTo(0.6, within(1e-12));
    }
}
