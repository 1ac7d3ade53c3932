package io.fairledger.core.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

import io.fairledger.core.chargeback.ChargebackConfig;
import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.ledger.RandomStreams;
import io.fairledger.core.model.MemoryMode;

/** Replay determinism and statement totals on random streams (issue 3 acceptance). */
class ReplayPropertiesTest {

    private static ReplayConfig config(BigDecimal cost, long until) {
        return new ReplayConfig(RandomStreams.config(0.5, new MemoryMode.Rounds(20_000, 0)),
                new PeriodSchedule(0, 15_000, "p"), ChargebackConfig.groupBuy(cost), until);
    }

    @Property(tries = 150)
    void simultaneousEventsInAnyOrderGiveTheSameResult(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 150) int count) {
        List<LedgerEvent> events = RandomStreams.events(seed, count, true);
        long until = events.get(events.size() - 1).at() + 1000;
        List<LedgerEvent> shuffled = shuffleWithinInstants(events, new Random(seed ^ 0x5DEECE66DL));
        var a = Replay.run(config(new BigDecimal("10.00"), until), events);
        var b = Replay.run(config(new BigDecimal("10.00"), until), shuffled);
        assertThat(b.statements()).isEqualTo(a.statements());
        assertThat(b.openAccounts()).isEqualTo(a.openAccounts());
        assertThat(b.outcomes()).isEqualTo(a.outcomes());
    }

    /** Reorders events that share an instant, keeping the order of instants. */
    private static List<LedgerEvent> shuffleWithinInstants(List<LedgerEvent> events, Random rnd) {
        List<LedgerEvent> out = new ArrayList<>();
        int i = 0;
        while (i < events.size()) {
            int j = i;
            while (j < events.size() && events.get(j).at() == events.get(i).at()) {
                j++;
            }
            List<LedgerEvent> group = new ArrayList<>(events.subList(i, j));
            Collections.shuffle(group, rnd);
            out.addAll(group);
            i = j;
        }
        return out;
    }

    @Property(tries = 150)
    void groupBuyStatementsSumToThePeriodCost(@ForAll long seed, @ForAll @IntRange(min = 1, max = 150) int count,
            @ForAll @LongRange(min = 0, max = 10_000_000) long cents) {
        List<LedgerEvent> events = RandomStreams.events(seed, count, true);
        BigDecimal cost = BigDecimal.valueOf(cents, 2);
        var result = Replay.run(config(cost, events.get(events.size() - 1).at() + 20_000), events);
        assertThat(result.statements()).isNotEmpty();
        for (var s : result.statements()) {
            assertThat(s.totalCharge()).as("period %s", s.period().id()).isEqualByComparingTo(cost);
        }
    }
}
