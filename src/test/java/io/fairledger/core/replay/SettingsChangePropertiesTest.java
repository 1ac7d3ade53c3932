package io.fairledger.core.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Random;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

import io.fairledger.core.chargeback.ChargebackConfig;
import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.ledger.RandomStreams;
import io.fairledger.core.model.ClusterConfig;
import io.fairledger.core.model.MemoryMode;
import io.fairledger.core.model.PricePlan;
import io.fairledger.core.model.TenantConfig;
import io.fairledger.core.model.TenantPath;

/**
 * A settings change is prospective ({@link ReplayConfig.Change}): the ledger takes another weight at the change's
 * instant exactly as it takes a weight-change event there, and a checkpoint from before the change, made under the
 * settings without it, continues under the settings with it to exactly the replay of every event under them.
 */
class SettingsChangePropertiesTest {

    private static final long PERIOD_MS = 15_000;
    private static final ChargebackConfig PRICES = ChargebackConfig.groupBuy(new BigDecimal("12.34"));
    private static final ChargebackConfig OTHER_PRICES = ChargebackConfig.usage(new PricePlan("p",
            new BigDecimal("0.5"), new BigDecimal("0.01"), BigDecimal.ONE));

    @Provide
    Arbitrary<MemoryMode> memory() {
        return Arbitraries.of(new MemoryMode.Rounds(20_000, 3_000), new MemoryMode.Rounds(PERIOD_MS, 0),
                new MemoryMode.Full(), new MemoryMode.Decay(30_000));
    }

    private static ReplayConfig config(ClusterConfig cluster, long until, List<ReplayConfig.Change> changes) {
        return new ReplayConfig(cluster, new PeriodSchedule(0, PERIOD_MS, "p"), PRICES, until, changes);
    }

    /**
     * Sorted events, a change at a share {@code atPermille} of their span (other weights, or also discount rates,
     * prices and a new tenant), how many events come before it and a cut among those.
     */
    private record Scenario(List<LedgerEvent> events, ClusterConfig live, long at, long until, ReplayConfig before,
            ReplayConfig after, int beforeChange, int cut) {

        static Scenario of(long seed, int count, MemoryMode memory, int atPermille, int cutPermille,
                boolean weightsOnly) {
            List<LedgerEvent> events = new ArrayList<>(RandomStreams.events(seed, count, false));
            events.sort(CanonicalOrder.COMPARATOR);
            long last = events.stream().mapToLong(LedgerEvent::at).max().orElse(0);
            long at = Math.max(1, (last + PERIOD_MS) * atPermille / 1000);
            long until = Math.max(last, at) + 20_000;
            ClusterConfig live = RandomStreams.config(0.5, memory);
            ReplayConfig after = config(live, until, List.of(new ReplayConfig.Change(at,
                    variant(live, new Random(seed), weightsOnly), weightsOnly ? PRICES : OTHER_PRICES)));
            int beforeChange = 0;
            while (beforeChange < events.size() && events.get(beforeChange).at() < at) {
                beforeChange++;
            }
            return new Scenario(events, live, at, until, config(live, until, List.of()), after, beforeChange,
                    beforeChange * cutPermille / 1000);
        }
    }

    /** {@code live} with other weights, or also other discount rates, prices and a new tenant. */
    private static ClusterConfig variant(ClusterConfig live, Random rnd, boolean weightsOnly) {
        List<TenantConfig> tenants = new ArrayList<>();
        for (TenantConfig t : live.tenants()) {
            double weight = rnd.nextInt(3) == 0 ? t.weight() : rnd.nextInt(9) / 2.0;
            OptionalDouble discount = weightsOnly || rnd.nextBoolean()
                    ? t.discountOverride()
                    : OptionalDouble.of(rnd.nextDouble());
            tenants.add(new TenantConfig(t.path(), weight, discount, t.pricePlan()));
        }
        if (!weightsOnly) {
            tenants.add(new TenantConfig(TenantPath.parse("n/m"), 1 + rnd.nextInt(3), OptionalDouble.empty(), ""));
        }
        return new ClusterConfig(live.clusterId(), live.registeredAt(), live.capacity(), tenants,
                weightsOnly ? live.discountRate() : rnd.nextInt(5) / 4.0, live.memory(), live.par(), live.measure(),
                live.rootQuantumMs(), live.quantumRefreshMs());
    }

    @Property(tries = 300)
    void anotherWeightFromAnInstantIsAWeightChangeEventAtIt(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 200) int count, @ForAll("memory") MemoryMode memory,
            @ForAll @IntRange(min = 1, max = 999) int atPermille) {
        List<LedgerEvent> events = RandomStreams.events(seed, count, false);
        long last = events.stream().mapToLong(LedgerEvent::at).max().orElse(0);
        long at = Math.max(1, (last + PERIOD_MS) * atPermille / 1000);
        List<LedgerEvent> others = events.stream().filter(e -> e.at() != at).sorted(CanonicalOrder.COMPARATOR)
                .toList();
        long until = Math.max(last, at) + 20_000;
        ClusterConfig live = RandomStreams.config(0.5, memory);
        Random rnd = new Random(seed);
        TenantConfig one = live.tenants().get(rnd.nextInt(live.tenants().size()));
        double weight = rnd.nextInt(9) / 2.0;
        List<TenantConfig> tenants = new ArrayList<>(live.tenants());
        tenants.set(tenants.indexOf(one), new TenantConfig(one.path(), weight, one.discountOverride(),
                one.pricePlan()));
        ClusterConfig variant = new ClusterConfig(live.clusterId(), live.registeredAt(), live.capacity(), tenants,
                live.discountRate(), live.memory(), live.par(), live.measure(), live.rootQuantumMs(),
                live.quantumRefreshMs());

        Replay changed = new Replay(config(live, until, List.of(new ReplayConfig.Change(at, variant, PRICES))));
        others.forEach(changed::apply);
        changed.closeUntil(until);

        List<LedgerEvent> withEvents = new ArrayList<>(others);
        withEvents.add(new LedgerEvent.WeightChanged("c", one.path(), weight, at));
        ReplayResult expected = Replay.run(config(live, until, List.of()), withEvents);
        assertThat(changed.statements()).isEqualTo(expected.statements());
        assertThat(changed.result(until).openAccounts()).isEqualTo(expected.openAccounts());
    }

    /**
     * Several changes one after the other, each sharing the configuration of every tenant it leaves alone with the one
     * before (as the server's settings do), so that a ledger holding its configuration visits only the tenants each
     * changes ({@code Reweighting.reconfigure}): each is still what weight-change events of every tenant it lists at its
     * instant are, also when weight-change events among the facts set other weights in between.
     */
    @Property(tries = 300)
    void changesSharingTheirTenantsAreWeightChangeEventsOfEveryTenantTheyList(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 200) int count, @ForAll("memory") MemoryMode memory,
            @ForAll boolean eventWeights, @ForAll @IntRange(min = 1, max = 5) int changeCount) {
        List<LedgerEvent> events = RandomStreams.events(seed, count, eventWeights);
        long last = events.stream().mapToLong(LedgerEvent::at).max().orElse(0);
        Random rnd = new Random(seed);
        ClusterConfig live = RandomStreams.config(0.5, memory);
        List<ReplayConfig.Change> changes = new ArrayList<>();
        List<LedgerEvent> reference = new ArrayList<>();
        ClusterConfig config = live;
        long at = 0;
        for (int c = 0; c < changeCount; c++) {
            at += 1 + rnd.nextInt((int) (last + PERIOD_MS) / changeCount + 1);
            List<TenantConfig> tenants = new ArrayList<>(config.tenants());
            for (int k = 0; k <= rnd.nextInt(2); k++) {
                int i = rnd.nextInt(tenants.size());
                TenantConfig t = tenants.get(i);
                tenants.set(i, new TenantConfig(t.path(), rnd.nextInt(9) / 2.0, t.discountOverride(), t.pricePlan()));
            }
            config = new ClusterConfig(live.clusterId(), live.registeredAt(), live.capacity(), tenants,
                    live.discountRate(), live.memory(), live.par(), live.measure(), live.rootQuantumMs(),
                    live.quantumRefreshMs());
            changes.add(new ReplayConfig.Change(at, config, PRICES));
            for (TenantConfig t : tenants) {
                reference.add(new LedgerEvent.WeightChanged("c", t.path(), t.weight(), at));
            }
        }
        List<Long> instants = changes.stream().map(ReplayConfig.Change::at).toList();
        List<LedgerEvent> others = events.stream().filter(e -> !instants.contains(e.at()))
                .sorted(CanonicalOrder.COMPARATOR).toList();
        long until = Math.max(last, at) + 20_000;

        Replay changed = new Replay(config(live, until, changes));
        others.forEach(changed::apply);
        changed.closeUntil(until);

        reference.addAll(others);
        ReplayResult expected = Replay.run(config(live, until, List.of()), reference);
        assertThat(changed.statements()).isEqualTo(expected.statements());
        assertThat(changed.result(until).openAccounts()).isEqualTo(expected.openAccounts());
    }

    @Property(tries = 300)
    void aCheckpointFromBeforeAChangeContinuesUnderIt(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 200) int count, @ForAll("memory") MemoryMode memory,
            @ForAll @IntRange(min = 1, max = 999) int atPermille,
            @ForAll @IntRange(min = 0, max = 1000) int cutPermille,
            @ForAll boolean weightsOnly) {
        Scenario x = Scenario.of(seed, count, memory, atPermille, cutPermille, weightsOnly);
        long until = x.until();
        ReplayConfig before = x.before();
        ReplayConfig after = x.after();
        Replay old = new Replay(before);
        x.events().subList(0, x.cut()).forEach(old::apply);
        long clock = old.ledger().clock();
        assertThat(Checkpoint.settingsVersion(after, clock)).isEqualTo(Checkpoint.settingsVersion(before));
        Replay restored = Checkpoint.fromBytes(after, Checkpoint.toBytes(old));
        x.events().subList(x.cut(), x.events().size()).forEach(restored::apply);
        restored.closeUntil(until);

        Replay full = new Replay(after);
        x.events().forEach(full::apply);
        full.closeUntil(until);
        assertThat(restored.statements()).isEqualTo(full.statements());
        assertThat(restored.result(until).openAccounts()).isEqualTo(full.result(until).openAccounts());
        assertThat(restored.result(until).outcomes()).isEqualTo(full.result(until).outcomes());
        assertThat(restored.openStatement(until)).isEqualTo(full.openStatement(until));
        // the checkpoints made after the change are under the changed settings only
        assertThat(Checkpoint.settingsVersion(after, x.at())).isNotEqualTo(Checkpoint.settingsVersion(before));
        assertThat(Checkpoint.fromBytes(after, Checkpoint.toBytes(full)).statements()).isEqualTo(full.statements());
    }

    /**
     * The live ledger's path ({@code LiveLedger.continueUnder}): a replay goes on in place under settings that change
     * after its clock, takes the change at once, and ends exactly where the replay of every event under them ends.
     */
    @Property(tries = 300)
    void aReplayContinuedInPlaceUnderALaterChangeEqualsTheFullReplay(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 200) int count, @ForAll("memory") MemoryMode memory,
            @ForAll @IntRange(min = 1, max = 999) int atPermille,
            @ForAll @IntRange(min = 0, max = 1000) int cutPermille,
            @ForAll boolean weightsOnly, @ForAll boolean replace) {
        Scenario x = Scenario.of(seed, count, memory, atPermille, cutPermille, weightsOnly);
        List<LedgerEvent> events = x.events();
        long at = x.at();
        long until = x.until();
        ClusterConfig live = x.live();
        ReplayConfig before = x.before();
        ReplayConfig after = x.after();
        int beforeChange = x.beforeChange();
        int cut = x.cut();

        Replay old = new Replay(before);
        events.subList(0, cut).forEach(old::apply);
        assertThat(old.continuesUnder(after, old.ledger().clock())).isTrue();
        Replay continued = old.continuedUnder(after, old.ledger().clock()).orElseThrow();
        events.subList(cut, beforeChange).forEach(continued::apply);
        continued.takeChanges();
        assertThat(continued.ledger().clock()).isEqualTo(at);
        long lastEvent = beforeChange == 0 ? Long.MIN_VALUE : events.get(beforeChange - 1).at();
        assertThat(continued.continuesUnder(before, lastEvent)).as("the change is taken: the old settings no longer "
                + "hold").isFalse();
        if (replace) {
            // a second change made before any new fact replaces the first at the same instant
            ClusterConfig again = variant(after.clusterAt(at), new Random(seed + 1), true);
            ReplayConfig replaced = config(live, until, List.of(new ReplayConfig.Change(at, again, OTHER_PRICES)));
            assertThat(continued.continuesUnder(replaced, lastEvent)).isTrue();
            if (!Checkpoint.settingsVersion(replaced, at).equals(Checkpoint.settingsVersion(after, at))) {
                assertThat(continued.continuesUnder(replaced, at)).as("not once an event came at the change")
                        .isFalse();
            }
            after = replaced;
            continued = continued.continuedUnder(after, lastEvent).orElseThrow();
        }
        events.subList(beforeChange, events.size()).forEach(continued::apply);
        continued.closeUntil(until);

        Replay full = new Replay(after);
        events.forEach(full::apply);
        full.closeUntil(until);
        assertThat(continued.statements()).isEqualTo(full.statements());
        assertThat(continued.result(until).openAccounts()).isEqualTo(full.result(until).openAccounts());
        assertThat(continued.openStatement(until)).isEqualTo(full.openStatement(until));
    }

    @Example
    void aReplayPastAChangeCannotContinueInPlaceUnderIt() {
        ClusterConfig live = RandomStreams.config(0.5, new MemoryMode.Full());
        ReplayConfig before = config(live, 100_000, List.of());
        ReplayConfig after = config(live, 100_000,
                List.of(new ReplayConfig.Change(10_000, variant(live, new Random(1), true), PRICES)));
        Replay old = new Replay(before);
        old.apply(new LedgerEvent.DemandChanged("c", TenantPath.parse("a"), "app",
                io.fairledger.core.model.ResourceVector.of(1, 0, 0), 10_000));
        assertThat(old.continuesUnder(after, 10_000)).isFalse();
        assertThat(old.continuedUnder(after, 10_000)).isEmpty();
    }

    @Example
    void aCheckpointFromAfterAnInstantIsRefusedUnderAChangeFromIt() {
        ClusterConfig live = RandomStreams.config(0.5, new MemoryMode.Full());
        ReplayConfig before = config(live, 100_000, List.of());
        ReplayConfig after = config(live, 100_000,
                List.of(new ReplayConfig.Change(10_000, variant(live, new Random(1), true), PRICES)));
        Replay old = new Replay(before);
        old.apply(new LedgerEvent.DemandChanged("c", TenantPath.parse("a"), "app",
                io.fairledger.core.model.ResourceVector.of(1, 0, 0), 12_000));
        assertThatThrownBy(() -> Checkpoint.fromBytes(after, Checkpoint.toBytes(old)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("settings version");
    }

    @Example
    void aChangeOfMoreThanTenantsAndPricesIsRefused() {
        ClusterConfig live = RandomStreams.config(0.5, new MemoryMode.Full());
        ClusterConfig decay = live.withMemory(new MemoryMode.Decay(1_000));
        Replay replay = new Replay(config(live, 100_000, List.of(new ReplayConfig.Change(10_000, decay, PRICES))));
        assertThatThrownBy(() -> replay.closeUntil(20_000)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nothing else");
    }
}
