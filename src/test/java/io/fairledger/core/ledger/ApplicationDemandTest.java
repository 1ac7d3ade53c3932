package io.fairledger.core.ledger;

import static io.fairledger.core.ledger.LedgerFixtures.CLUSTER;
import static io.fairledger.core.ledger.LedgerFixtures.full;
import static io.fairledger.core.ledger.LedgerFixtures.p;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.fairledger.core.ledger.LedgerEvent.DemandChanged;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantConfig;
import io.fairledger.core.replay.CanonicalOrder;

/**
 * A tenant's pending demand is the sum of its applications' latest reports (docs/domain.md section 3): reports of
 * several applications at one instant all count and commute; an application reporting zero leaves the sum.
 */
class ApplicationDemandTest {

    @Test
    void simultaneousReportsOfTwoApplicationsAddUpInEitherOrder() {
        List<DemandChanged> reports = List.of(demand("x1", 2, 1_000), demand("x2", 3, 1_000));
        for (List<DemandChanged> order : List.of(reports, List.of(reports.get(1), reports.get(0)))) {
            ClusterLedger ledger = new ClusterLedger(full(TenantConfig.of("a", 1)));
            order.forEach(ledger::apply);
            assertThat(ledger.account(p("a"), 1_000).now().pending()).isEqualTo(ResourceVector.of(5, 0, 0));
        }
    }

    @Test
    void anApplicationReportingZeroLeavesTheSumAndTheTenantsOwnReportIsOneMore() {
        ClusterLedger ledger = new ClusterLedger(full(TenantConfig.of("a", 1)));
        ledger.apply(demand("x1", 2, 1_000));
        ledger.apply(demand("x2", 3, 1_000));
        ledger.apply(demand("", 1, 1_000));
        ledger.apply(demand("x1", 0, 2_000));
        ledger.apply(demand("x2", 0, 2_000));
        assertThat(ledger.account(p("a"), 2_000).now().pending()).isEqualTo(ResourceVector.of(1, 0, 0));
        assertThat(ledger.account(p("root"), 2_000).now().pending()).isEqualTo(ResourceVector.of(1, 0, 0));
    }

    @Test
    void anyArrivalOrderOfSimultaneousReportsGivesTheSameAccounts() {
        Random random = new Random(15);
        List<LedgerEvent> events = new ArrayList<>();
        for (int t = 0; t < 20; t++) {
            for (String app : List.of("x1", "x2", "x3")) {
                events.add(demand(app, random.nextInt(4), 1_000L * t));
            }
        }
        List<TenantAccount> expected = replay(events);
        for (int i = 0; i < 10; i++) {
            List<LedgerEvent> shuffled = new ArrayList<>(events);
            Collections.shuffle(shuffled, random);
            assertThat(replay(shuffled)).isEqualTo(expected);
        }
    }

    private static List<TenantAccount> replay(List<LedgerEvent> events) {
        List<LedgerEvent> ordered = new ArrayList<>(events);
        ordered.sort(CanonicalOrder.COMPARATOR);
        ClusterLedger ledger = new ClusterLedger(full(TenantConfig.of("a", 1), TenantConfig.of("b", 1)));
        ordered.forEach(ledger::apply);
        return ledger.accounts(20_000);
    }

    private static DemandChanged demand(String application, long vcores, long at) {
        return new DemandChanged(CLUSTER, p("a"), application, ResourceVector.of(vcores, 0, 0), at);
    }
}
