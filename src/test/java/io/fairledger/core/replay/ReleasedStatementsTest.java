package io.fairledger.core.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fairledger.core.chargeback.ChargebackConfig;
import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.ledger.RandomStreams;
import io.fairledger.core.model.MemoryMode;
import io.fairledger.core.model.PricePlan;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;

/**
 * A replay that releases its closed periods' statements, as the server's live ledger does once the closer has stored
 * them ({@link Replay#release}), holds, and checkpoints, the same whatever the number of closed periods; restored, it
 * goes on exactly as the replay that keeps every statement.
 */
class ReleasedStatementsTest {

    /** One-second periods. */
    static final ReplayConfig CONFIG = new ReplayConfig(RandomStreams.config(0.5, new MemoryMode.Full()),
            new PeriodSchedule(0, 1_000, "p"), ChargebackConfig.usage(new PricePlan("std", new BigDecimal("0.7"),
                    new BigDecimal("0.05"), new BigDecimal("2.5"))),
            Long.MAX_VALUE);

    /**
     * Every leaf runs one task per period, restarted a little into the next one (a stream whose ledger state keeps its
     * size), over {@code periods} periods.
     */
    static List<LedgerEvent> events(int periods) {
        List<LedgerEvent> events = new ArrayList<>();
        for (int p = 0; p < periods; p++) {
            for (int leaf = 0; leaf < RandomStreams.LEAVES.size(); leaf++) {
                long at = p * 1_000L + 100 + 10 * leaf;
                if (p > 0) {
                    events.add(new LedgerEvent.TaskFinished("c", "t" + (p - 1) + "-" + leaf, at));
                }
                events.add(new LedgerEvent.TaskStarted("c", "t" + p + "-" + leaf,
                        TenantPath.parse(RandomStreams.LEAVES.get(leaf)), "app", ResourceVector.of(1 + leaf, 512, 0),
                        at));
            }
        }
        return events;
    }

    @Test
    void theCheckpointOfAReleasingReplayDoesNotGrowWithTheClosedPeriods() {
        Replay released = new Replay(CONFIG);
        Replay kept = new Replay(CONFIG);
        int[] released30 = null;
        int[] released365 = null;
        for (LedgerEvent e : events(400)) {
            released.apply(e);
            kept.apply(e);
            released.release(released.openPeriod().start());
            if (released30 == null && released.closedPeriods() >= 30) {
                released30 = new int[]{Checkpoint.toBytes(released).length, Checkpoint.toBytes(kept).length};
            }
            if (released365 == null && released.closedPeriods() >= 365) {
                released365 = new int[]{Checkpoint.toBytes(released).length, Checkpoint.toBytes(kept).length};
            }
        }
        assertThat(released365).as("the events close 365 periods").isNotNull();
        assertThat(released.statements()).isEmpty();
        assertThat(kept.statements()).hasSize((int) released.closedPeriods());
        // the period id has a digit more: a few bytes
        assertThat(released365[0]).as("checkpoint after 365 periods, released").isBetween(released30[0] - 64,
                released30[0] + 64);
        assertThat(released365[1]).as("checkpoint after 365 periods, every statement kept")
                .isGreaterThan(5 * released30[1]);
    }

    @Test
    void aReleasedCheckpointGoesOnAsTheReplayThatKeepsEveryStatement() {
        List<LedgerEvent> events = events(100);
        int half = events.size() / 2;
        Replay released = new Replay(CONFIG);
        events.subList(0, half).forEach(released::apply);
        long closed = released.closedPeriods();
        released.release(released.openPeriod().start() - 1_000);
        assertThat(released.statements()).as("the last closed period, not released").hasSize(1);
        assertThat(released.holdsClosedFrom(released.openPeriod().start())).isTrue();
        assertThat(released.holdsClosedFrom(released.openPeriod().start() - 1_000)).isFalse();

        assertThat(Checkpoint.statementsCarried(Checkpoint.toBytes(released))).as("read from the header").isOne();
        Replay keepsAll = new Replay(CONFIG);
        events.subList(0, half).forEach(keepsAll::apply);
        assertThat(Checkpoint.statementsCarried(Checkpoint.toBytes(keepsAll))).isEqualTo(closed);
        Replay resumed = Checkpoint.fromBytes(CONFIG, Checkpoint.toBytes(released));
        assertThat(resumed.closedPeriods()).isEqualTo(closed);
        events.subList(half, events.size()).forEach(resumed::apply);
        ReplayResult full = Replay.run(new ReplayConfig(CONFIG.cluster(), CONFIG.periods(),
                CONFIG.chargeback(), resumed.ledger().clock()), events);
        assertThat(resumed.statements()).as("every period from the one not released on")
                .isEqualTo(full.statements().subList((int) closed - 1, full.statements().size()));
        assertThat(resumed.closedPeriods()).isEqualTo(full.statements().size());
    }
}
