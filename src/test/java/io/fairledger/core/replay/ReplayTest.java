package io.fairledger.core.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fairledger.core.chargeback.ChargebackConfig;
import io.fairledger.core.chargeback.LateAdjustments;
import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.ledger.Outcome;
import io.fairledger.core.model.ClusterConfig;
import io.fairledger.core.model.MemoryMode;
import io.fairledger.core.model.PricePlan;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantConfig;
import io.fairledger.core.model.TenantPath;

class ReplayTest {

    private static final long HOUR = 3_600_000L;

    static ReplayConfig config() {
        var cluster = ClusterConfig.defaults("c", 0, ResourceVector.of(10, 10240, 0),
                List.of(TenantConfig.of("a", 1), TenantConfig.of("b", 1))).withMemory(new MemoryMode.Full());
        var plan = new PricePlan("std", new BigDecimal("1.00"), BigDecimal.ZERO, BigDecimal.ZERO);
        return new ReplayConfig(cluster, new PeriodSchedule(0, HOUR, "h"), ChargebackConfig.usage(plan),
                2 * HOUR + HOUR / 2);
    }

    static LedgerEvent.TaskStarted start(String id, String tenant, long vcores, long at) {
        return new LedgerEvent.TaskStarted("c", id, TenantPath.parse(tenant), "", ResourceVector.of(vcores, 0, 0), at);
    }

    static LedgerEvent.TaskFinished finish(String id, long at) {
        return new LedgerEvent.TaskFinished("c", id, at);
    }

    @Test
    void cutsStatementsAtPeriodBoundaries() {
        var events = List.<LedgerEvent>of(finish("t1", 90 * 60_000L), start("t1", "a", 4, 0),
                start("t2", "b", 2, HOUR), new LedgerEvent.TaskFinished("other", "t9", 10));
        var result = Replay.run(config(), events);
        assertThat(result.statements()).hasSize(2);
        // a: 4 vcores for 1 h in h0, 0.5 h in h1; b: 2 vcores from 1 h on
        assertThat(result.statements().get(0).totalCharge()).isEqualByComparingTo("4.00");
        assertThat(result.statements().get(1).totalCharge()).isEqualByComparingTo("4.00");
        assertThat(result.statements().get(1).period().id()).isEqualTo("h1");
        assertThat(result.outcomes().get(Outcome.REJECTED_OTHER_CLUSTER)).isEqualTo(1);
        assertThat(result.ledger().runningTasks()).isEqualTo(1);
    }

    @Test
    void lateEventBecomesAnAdjustmentNamingItsPeriod() {
        List<LedgerEvent> events = new ArrayList<>(List.of(start("t1", "a", 4, 0), finish("t1", HOUR)));
        var first = Replay.run(config(), events);
        events.add(start("late", "b", 1, HOUR / 2));
        events.add(finish("late", HOUR));
        var rerun = Replay.run(config(), events);
        var closed = first.statements().get(0);
        var due = LateAdjustments.due(List.of(new LateAdjustments.ClosedPeriod(closed.period().id(),
                LateAdjustments.charges(closed), LateAdjustments.charges(rerun.statements().get(0)))), List.of());
        assertThat(due).containsOnlyKeys("root.b");
        assertThat(due.get("root.b")).hasSize(1);
        assertThat(due.get("root.b").get(0).correctedPeriod()).isEqualTo("h0");
        assertThat(due.get("root.b").get(0).amount()).isEqualByComparingTo("0.50");
    }

    @Test
    void startAndFinishInTheSameMillisecondIsAZeroLengthTask() {
        var result = Replay.run(config(), List.of(finish("t", 5), start("t", "a", 1, 5)));
        assertThat(result.outcomes().get(Outcome.APPLIED)).isEqualTo(2);
        assertThat(result.ledger().runningTasks()).isZero();
    }
}
