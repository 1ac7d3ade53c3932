package io.fairledger.core.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.math.BigInteger;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

import io.fairledger.core.model.MemoryMode;
import io.fairledger.core.model.TenantPath;

/** Invariants of the ledger on random event streams (issue 3 acceptance). */
class LedgerPropertiesTest {

    @Property(tries = 200)
    void lendingBalancesSumToZeroAtAllTimes(@ForAll long seed, @ForAll @IntRange(min = 1, max = 120) int count,
            @ForAll @IntRange(min = 0, max = 2) int etaStep) {
        var ledger = new ClusterLedger(RandomStreams.config(etaStep / 2.0, new MemoryMode.Full()));
        for (LedgerEvent e : RandomStreams.events(seed, count, true)) {
            ledger.apply(e);
            assertBalancesSumToZero(ledger.accounts(ledger.clock()));
        }
        assertBalancesSumToZero(ledger.accounts(ledger.clock() + 5000));
    }

    private static void assertBalancesSumToZero(List<TenantAccount> accounts) {
        Map<TenantPath, Double> sums = new HashMap<>();
        Map<TenantPath, Double> scale = new HashMap<>();
        double total = 0;
        for (TenantAccount a : accounts) {
            if (a.path().isRoot()) {
                continue;
            }
            sums.merge(a.path().parent(), a.period().balance(), Double::sum);
            scale.merge(a.path().parent(), Math.abs(a.period().lent()), Double::sum);
            total += a.period().balance();
        }
        for (var e : sums.entrySet()) {
            assertThat(e.getValue()).as("balances among the children of %s", e.getKey()).isCloseTo(0,
                    within(1e-9 * Math.max(1, scale.get(e.getKey()))));
        }
        assertThat(total).isCloseTo(0, within(1e-6));
    }

    @Property(tries = 200)
    void actualUsageIsTaskSizeTimesDuration(@ForAll long seed, @ForAll @IntRange(min = 1, max = 150) int count) {
        var events = RandomStreams.events(seed, count, true);
        var ledger = new ClusterLedger(RandomStreams.config(1, new MemoryMode.Full()));
        Map<String, LedgerEvent.TaskStarted> started = new HashMap<>();
        Map<TenantPath, BigInteger[]> expected = new HashMap<>();
        long end = events.get(events.size() - 1).at() + 1000;
        Map<String, Long> finishedAt = new HashMap<>();
        for (LedgerEvent e : events) {
            ledger.apply(e);
            if (e instanceof LedgerEvent.TaskStarted s) {
                started.put(s.taskId(), s);
            } else if (e instanceof LedgerEvent.TaskFinished f) {
                finishedAt.put(f.taskId(), f.at());
            }
        }
        BigInteger[] total = {BigInteger.ZERO, BigInteger.ZERO, BigInteger.ZERO};
        for (var s : started.values()) {
            long duration = finishedAt.getOrDefault(s.taskId(), end) - s.at();
            BigInteger[] perTenant = expected.computeIfAbsent(s.tenant(),
                    k -> new BigInteger[]{BigInteger.ZERO, BigInteger.ZERO, BigInteger.ZERO});
            for (int r = 0; r < 3; r++) {
                BigInteger v = BigInteger.valueOf(s.resources().get(r)).multiply(BigInteger.valueOf(duration));
                perTenant[r] = perTenant[r].add(v);
                total[r] = total[r].add(v);
            }
        }
        for (var e : expected.entrySet()) {
            assertThat(ledger.account(e.getKey(), end).period().resourceMs()).containsExactly(e.getValue());
        }
        assertThat(ledger.account(TenantPath.ROOT, end).period().resourceMs()).containsExactly(total);
    }

    @Property(tries = 200)
    void shareIntegralIsTheDominantShareOfWhatRunsTimesDuration(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 150) int count) {
        var events = RandomStreams.events(seed, count, false);
        var config = RandomStreams.config(1, new MemoryMode.Full());
        var ledger = new ClusterLedger(config);
        events.forEach(ledger::apply);
        long end = events.get(events.size() - 1).at() + 1000;
        // recomputed independently from the event list: between two events, the dominant share of all running tasks
        double expected = 0;
        Map<String, LedgerEvent.TaskStarted> live = new HashMap<>();
        long last = 0;
        for (LedgerEvent e : events) {
            expected += rootShare(live, config) * (e.at() - last);
            last = e.at();
            if (e instanceof LedgerEvent.TaskStarted s) {
                live.put(s.taskId(), s);
            } else if (e instanceof LedgerEvent.TaskFinished f) {
                live.remove(f.taskId());
            }
        }
        expected += rootShare(live, config) * (end - last);
        assertThat(ledger.account(TenantPath.ROOT, end).period().actual()).isCloseTo(expected,
                within(1e-9 * Math.max(1, expected)));
    }

    private static double rootShare(Map<String, LedgerEvent.TaskStarted> live,
            io.fairledger.core.model.ClusterConfig config) {
        var sum = io.fairledger.core.model.ResourceVector.ZERO;
        for (var s : live.values()) {
            sum = sum.plus(s.resources());
        }
        return config.measure().share(sum, config.capacity());
    }

    @Property(tries = 150)
    void roundsWithAVeryLongRoundEqualFull(@ForAll long seed, @ForAll @IntRange(min = 1, max = 150) int count) {
        var events = RandomStreams.events(seed, count, true);
        var full = new ClusterLedger(RandomStreams.config(0.5, new MemoryMode.Full()));
        var rounds = new ClusterLedger(RandomStreams.config(0.5, new MemoryMode.Rounds(Long.MAX_VALUE / 4, 0)));
        events.forEach(full::apply);
        events.forEach(rounds::apply);
        long end = events.get(events.size() - 1).at() + 777;
        assertThat(rounds.accounts(end)).isEqualTo(full.accounts(end));
    }

    @Property(tries = 150)
    void decayWithAVeryLongHalfLifeEqualsFull(@ForAll long seed, @ForAll @IntRange(min = 1, max = 150) int count) {
        var events = RandomStreams.events(seed, count, true);
        var full = new ClusterLedger(RandomStreams.config(0.5, new MemoryMode.Full()));
        var decay = new ClusterLedger(RandomStreams.config(0.5, new MemoryMode.Decay(1_000_000_000_000_000L)));
        events.forEach(full::apply);
        events.forEach(decay::apply);
        long end = events.get(events.size() - 1).at() + 777;
        List<TenantAccount> f = full.accounts(end);
        List<TenantAccount> d = decay.accounts(end);
        for (int i = 0; i < f.size(); i++) {
            var fm = f.get(i).memory();
            var dm = d.get(i).memory();
            double tol = 1e-6 * Math.max(1, fm.counted() + fm.par());
            assertThat(dm.actual()).isCloseTo(fm.actual(), within(tol));
            assertThat(dm.counted()).isCloseTo(fm.counted(), within(tol));
            assertThat(dm.entitled()).isCloseTo(fm.entitled(), within(tol));
            assertThat(dm.par()).isCloseTo(fm.par(), within(tol));
            assertThat(d.get(i).period()).isEqualTo(f.get(i).period());
        }
    }
}
