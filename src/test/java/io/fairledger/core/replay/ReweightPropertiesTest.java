package io.fairledger.core.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Random;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

import io.fairledger.core.chargeback.ChargebackConfig;
import io.fairledger.core.chargeback.Statement;
import io.fairledger.core.fairness.FairnessReport;
import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.ledger.RandomStreams;
import io.fairledger.core.model.ClusterConfig;
import io.fairledger.core.model.MemoryMode;
import io.fairledger.core.model.ParPolicy;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantConfig;
import io.fairledger.core.model.TenantPath;

/**
 * A what-if that changes tenant weights or discount rates under ROUNDS may start at a round start: a replay under the
 * live settings up to the round start {@code R}, continued there under the variant ({@link Replay#reweightedAt}),
 * states every period starting at or after {@code R} exactly as the replay of every event under the variant from the
 * registration, and ends with the same accounts.
 */
class ReweightPropertiesTest {

    private static final long PERIOD_MS = 15_000;

    /** Rounds aligned with the periods, longer and offset (periods straddle round starts), and shorter. */
    @Provide
    Arbitrary<MemoryMode.Rounds> rounds() {
        return Arbitraries.of(new MemoryMode.Rounds(PERIOD_MS, 0), new MemoryMode.Rounds(20_000, 3_000),
                new MemoryMode.Rounds(7_500, 1_000), new MemoryMode.Rounds(45_000, 0));
    }

    private static ReplayConfig config(ClusterConfig cluster, long until) {
        return new ReplayConfig(cluster, new PeriodSchedule(0, PERIOD_MS, "p"),
                ChargebackConfig.groupBuy(new BigDecimal("12.34")), until);
    }

    /** The live cluster with random weights and discount rates (the cluster's and some tenants'), the rest alike. */
    private static ClusterConfig variant(ClusterConfig live, Random rnd) {
        List<TenantConfig> tenants = new ArrayList<>();
        for (TenantConfig t : live.tenants()) {
            double weight = rnd.nextInt(3) == 0 ? t.weight() : rnd.nextInt(9) / 2.0;
            OptionalDouble discount = rnd.nextBoolean() ? OptionalDouble.empty() : OptionalDouble.of(rnd.nextDouble());
            tenants.add(new TenantConfig(t.path(), weight, discount, t.pricePlan()));
        }
        return new ClusterConfig(live.clusterId(), live.registeredAt(), live.capacity(), tenants,
                rnd.nextBoolean() ? live.discountRate() : rnd.nextInt(5) / 4.0, live.memory(), live.par(),
                live.measure(), live.rootQuantumMs(), live.quantumRefreshMs());
    }

    @Property(tries = 400)
    void aReplayContinuedAtTheRoundStartUnderOtherWeightsStatesLaterPeriodsAsTheFullReplay(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 250) int count, @ForAll("rounds") MemoryMode.Rounds rounds,
            @ForAll ParPolicy par, @ForAll @IntRange(min = 0, max = 1000) int fromPermille,
            @ForAll @IntRange(min = 0, max = 1000) int checkpointPermille) {
        List<LedgerEvent> events = stream(seed, count);
        long last = events.stream().mapToLong(LedgerEvent::at).max().orElse(0);
        // a window start after the longest round's first start, so that there is a round start to start from
        long from = 45_000 + (last + PERIOD_MS) * fromPermille / 1000;
        long until = Math.max(last, from) + 20_000;
        ReplayConfig live = config(RandomStreams.config(0.5, rounds).withPar(par), until);
        ReplayConfig variant = config(variant(live.cluster(), new Random(seed ^ 0x9E3779B97F4A7C15L)), until);
        OptionalLong start = Replay.reweightStart(live, variant, from);
        Assume.that(start.isPresent());
        long roundStart = start.getAsLong();
        assertThat(roundStart).isLessThanOrEqualTo(live.periods().periodOf(from).start());
        assertThat(rounds.startOf(rounds.roundOf(roundStart))).isEqualTo(roundStart);

        Replay full = new Replay(variant);
        events.forEach(full::apply);
        full.closeUntil(until);

        int switchAt = 0;
        while (switchAt < events.size() && events.get(switchAt).at() < roundStart) {
            switchAt++;
        }
        // the live replay as a stored state would give it: up to a checkpoint, restored, then on to the round start
        int cut = switchAt * checkpointPermille / 1000;
        Replay before = new Replay(live);
        events.subList(0, cut).forEach(before::apply);
        Replay restored = Checkpoint.fromBytes(live, Checkpoint.toBytes(before));
        events.subList(cut, switchAt).forEach(restored::apply);
        Replay continued = restored.reweightedAt(roundStart, variant);
        events.subList(switchAt, events.size()).forEach(continued::apply);
        continued.closeUntil(until);

        List<Statement> expected = full.statements();
        List<Statement> actual = continued.statements();
        assertThat(actual).hasSameSizeAs(expected);
        int firstAfter = 0;
        while (firstAfter < expected.size() && expected.get(firstAfter).period().start() < roundStart) {
            firstAfter++;
        }
        assertThat(actual.subList(firstAfter, actual.size()))
                .isEqualTo(expected.subList(firstAfter, expected.size()));
        List<FairnessReport> expectedFairness = full.result(until).fairness();
        List<FairnessReport> actualFairness = continued.result(until).fairness();
        assertThat(actualFairness.subList(firstAfter, actualFairness.size()))
                .isEqualTo(expectedFairness.subList(firstAfter, expectedFairness.size()));
        assertThat(continued.result(until).openAccounts()).isEqualTo(full.result(until).openAccounts());
        assertThat(continued.result(until).outcomes()).isEqualTo(full.result(until).outcomes());
        assertThat(continued.openStatement(until)).isEqualTo(full.openStatement(until));
    }

    @Example
    void theStartGoesBackToTheRoundStartAtOrBeforeTheStartOfThePeriodHoldingTheWindowStart() {
        MemoryMode.Rounds rounds = new MemoryMode.Rounds(20_000, 3_000);
        ReplayConfig live = config(RandomStreams.config(0.5, rounds), 100_000);
        ReplayConfig variant = config(variant(live.cluster(), new Random(1)), 100_000);
        // the period [45 s, 60 s) holds 50 s; the round holding 45 s starts at 43 s
        assertThat(Replay.reweightStart(live, variant, 50_000)).hasValue(43_000);
        // the period [0, 15 s) starts with the registration: nothing earlier to skip
        assertThat(Replay.reweightStart(live, variant, 10_000)).isEmpty();
        ReplayConfig decay = config(RandomStreams.config(0.5, new MemoryMode.Decay(30_000)), 100_000);
        assertThat(Replay.reweightStart(decay, config(variant(decay.cluster(), new Random(1)), 100_000), 50_000))
                .isEmpty();
        ReplayConfig otherPar = config(live.cluster().withPar(ParPolicy.ZERO), 100_000);
        assertThat(Replay.reweightStart(live, otherPar, 50_000)).isEmpty();
    }

    @Example
    void aWeightSetByAnEventIsRefused() {
        ReplayConfig live = config(RandomStreams.config(0.5, new MemoryMode.Rounds(20_000, 0)), 100_000);
        ReplayConfig variant = config(variant(live.cluster(), new Random(2)), 100_000);
        Replay replay = new Replay(live);
        replay.apply(new LedgerEvent.WeightChanged("c", TenantPath.parse("a"), 7, 1_000));
        assertThatThrownBy(() -> replay.reweightedAt(20_000, variant)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("set by an event");
    }

    @Example
    void aReplayPastTheRoundStartIsRefused() {
        ReplayConfig live = config(RandomStreams.config(0.5, new MemoryMode.Rounds(20_000, 0)), 100_000);
        ReplayConfig variant = config(variant(live.cluster(), new Random(3)), 100_000);
        Replay replay = new Replay(live);
        replay.apply(new LedgerEvent.TaskStarted("c", "t", TenantPath.parse("a"), "app", ResourceVector.of(1, 0, 0),
                20_000));
        assertThatThrownBy(() -> replay.reweightedAt(20_000, variant)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not before the round start");
    }

    /**
     * A random stream with no weight changes (those would replace configured weights under either configuration), with
     * what real feeds carry: demand of several applications of one tenant at one instant, a second start of a running
     * task, finishes of unknown tasks, and late copies of earlier events (rejected by the ledger).
     */
    private static List<LedgerEvent> stream(long seed, int count) {
        List<LedgerEvent> events = new ArrayList<>(RandomStreams.events(seed, count, true).stream()
                .filter(e -> !(e instanceof LedgerEvent.WeightChanged)).toList());
        if (events.isEmpty()) {
            events.add(new LedgerEvent.TaskStarted("c", "only", TenantPath.parse("a"), "app",
                    ResourceVector.of(1, 0, 0), 0));
        }
        return FeedNoise.addedTo(events, seed, count);
    }
}
