package io.fairledger.core.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import io.fairledger.core.chargeback.ChargebackConfig;
import io.fairledger.core.chargeback.Statement;
import io.fairledger.core.grant.LongTermMaxMin;
import io.fairledger.core.grant.TreeGrants;
import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.ledger.RandomStreams;
import io.fairledger.core.model.MemoryMode;
import io.fairledger.core.model.ParPolicy;
import io.fairledger.core.model.PricePlan;

/**
 * A checkpoint holds the replay's whole state: restoring it and applying the rest of a stream gives exactly what
 * applying the whole stream gives (docs/architecture.md, "Checkpoints"). Compared three ways, so that a part of the
 * state the codec forgot fails: the re-serialised states byte for byte, the public results (statements, fairness,
 * every account, the open statement, the grants), and again after more events.
 */
class CheckpointTest {

    private static final long GRANT_INTERVAL_MS = 10_000;

    @Provide
    Arbitrary<MemoryMode> memory() {
        return Arbitraries.of(new MemoryMode.Full(), new MemoryMode.Rounds(20_000, 3_000),
                new MemoryMode.Decay(30_000));
    }

    private static ReplayConfig config(MemoryMode memory, ParPolicy par, boolean groupBuy, long until) {
        ChargebackConfig chargeback = groupBuy
                ? ChargebackConfig.groupBuy(new BigDecimal("12.34"))
                : ChargebackConfig.usage(new PricePlan("std", new BigDecimal("0.7"), new BigDecimal("0.05"),
                        new BigDecimal("2.5")));
        return new ReplayConfig(RandomStreams.config(0.5, memory).withPar(par), new PeriodSchedule(0, 15_000, "p"),
                chargeback, until);
    }

    @Property(tries = 300)
    void restoringACheckpointAndApplyingTheRestEqualsTheFullReplay(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 200) int count, @ForAll("memory") MemoryMode memory,
            @ForAll ParPolicy par, @ForAll boolean groupBuy, @ForAll @IntRange(min = 0, max = 1000) int cutPermille) {
        List<LedgerEvent> events = stream(seed, count);
        long until = events.stream().mapToLong(LedgerEvent::at).max().orElse(0) + 20_000;
        ReplayConfig config = config(memory, par, groupBuy, until);
        int cut = events.size() * cutPermille / 1000;

        Replay full = new Replay(config);
        events.forEach(full::apply);

        Replay before = new Replay(config);
        events.subList(0, cut).forEach(before::apply);
        byte[] checkpoint = Checkpoint.toBytes(before);
        Replay restored = Checkpoint.fromBytes(config, checkpoint);
        assertThat(Checkpoint.toBytes(restored)).as("a restored state writes the same bytes").isEqualTo(checkpoint);
        assertThat(Checkpoint.toBytes(before)).as("writing a checkpoint moves nothing").isEqualTo(checkpoint);
        events.subList(cut, events.size()).forEach(restored::apply);

        assertSame(full, restored, full.ledger().clock());
        long later = until - 7_000;
        full.closeUntil(later);
        restored.closeUntil(later);
        assertSame(full, restored, later);
        full.closeUntil(until);
        restored.closeUntil(until);
        assertSame(full, restored, until);
    }

    /**
     * A what-if for a price change: a checkpoint made under the live prices, continued under other prices
     * ({@link Replay#repriced}), states every period closed after the cut exactly as a full replay under those prices,
     * and ends with the same ledger.
     */
    @Property(tries = 200)
    void aRepricedCheckpointStatesLaterPeriodsAsTheFullReplayUnderTheNewPrices(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 200) int count, @ForAll("memory") MemoryMode memory,
            @ForAll ParPolicy par, @ForAll boolean liveGroupBuy,
            @ForAll @IntRange(min = 0, max = 1000) int cutPermille) {
        List<LedgerEvent> events = stream(seed, count);
        long until = events.stream().mapToLong(LedgerEvent::at).max().orElse(0) + 20_000;
        ReplayConfig live = config(memory, par, liveGroupBuy, until);
        ReplayConfig variant = config(memory, par, !liveGroupBuy, until);
        assertThat(Replay.sameLedger(live, variant)).isTrue();
        int cut = events.size() * cutPermille / 1000;

        Replay full = new Replay(variant);
        events.forEach(full::apply);
        full.closeUntil(until);

        Replay before = new Replay(live);
        events.subList(0, cut).forEach(before::apply);
        int closedAtCut = before.statements().size();
        Replay repriced = Checkpoint.fromBytes(live, Checkpoint.toBytes(before)).repriced(variant);
        events.subList(cut, events.size()).forEach(repriced::apply);
        repriced.closeUntil(until);

        List<Statement> expected = full.statements();
        List<Statement> actual = repriced.statements();
        assertThat(actual).hasSameSizeAs(expected);
        assertThat(actual.subList(closedAtCut, actual.size()))
                .isEqualTo(expected.subList(closedAtCut, expected.size()));
        assertThat(repriced.result(until).openAccounts()).isEqualTo(full.result(until).openAccounts());
    }

    @Test
    void onlyAPriceChangeCanBeRepriced() {
        ReplayConfig live = config(new MemoryMode.Full(), ParPolicy.MAX, false, 100_000);
        ReplayConfig otherMemory = config(new MemoryMode.Decay(30_000), ParPolicy.MAX, false, 100_000);
        assertThat(Replay.sameLedger(live, otherMemory)).isFalse();
        Replay replay = new Replay(live);
        assertThatThrownBy(() -> replay.repriced(otherMemory)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("repriced only");
    }

    /** Both states byte for byte, then everything computed from them at {@code at}. */
    private static void assertSame(Replay expected, Replay actual, long at) {
        assertThat(Checkpoint.toBytes(actual)).isEqualTo(Checkpoint.toBytes(expected));
        ReplayResult a = actual.result(at);
        ReplayResult e = expected.result(at);
        assertThat(a.statements()).isEqualTo(e.statements());
        assertThat(a.fairness()).isEqualTo(e.fairness());
        assertThat(a.openAccounts()).isEqualTo(e.openAccounts());
        assertThat(a.outcomes()).isEqualTo(e.outcomes());
        Statement open = actual.openStatement(at);
        assertThat(open).isEqualTo(expected.openStatement(at));
        assertThat(TreeGrants.levels(actual.ledger(), at, GRANT_INTERVAL_MS, new LongTermMaxMin()))
                .usingRecursiveComparison().withComparatorForType(Double::compare, Double.class)
                .isEqualTo(TreeGrants.levels(expected.ledger(), at, GRANT_INTERVAL_MS, new LongTermMaxMin()));
        assertThat(Checkpoint.toBytes(actual)).as("after the reads").isEqualTo(Checkpoint.toBytes(expected));
    }

    /**
     * A random stream in canonical order, with what real feeds carry besides: demand of several applications of one
     * tenant at one instant, a second start of a running task, finishes of unknown tasks, and late copies of earlier
     * events (the ledger rejects those; their count is state too).
     */
    private static List<LedgerEvent> stream(long seed, int count) {
        return FeedNoise.addedTo(new ArrayList<>(RandomStreams.events(seed, count, true)), seed, count);
    }

    @Test
    void anUnknownFormatVersionIsRefusedWithAMessage() {
        ReplayConfig config = config(new MemoryMode.Full(), ParPolicy.MAX, false, 100_000);
        Replay replay = new Replay(config);
        RandomStreams.events(1, 50, true).forEach(replay::apply);
        byte[] bytes = Checkpoint.toBytes(replay);
        bytes[4] = (byte) (Checkpoint.FORMAT + 1);
        assertThatThrownBy(() -> Checkpoint.fromBytes(config, bytes)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("format version " + (Checkpoint.FORMAT + 1) + " is unknown")
                .hasMessageContaining("and " + Checkpoint.FORMAT + " only");
        byte[] junk = Arrays.copyOf("not a checkpoint".getBytes(), 40);
        assertThatThrownBy(() -> Checkpoint.fromBytes(config, junk)).hasMessageContaining("not a ledger checkpoint");
        byte[] cut = Arrays.copyOf(Checkpoint.toBytes(replay), 100);
        assertThatThrownBy(() -> Checkpoint.fromBytes(config, cut)).hasMessageContaining("checkpoint is unreadable");
    }

    @Test
    void aCheckpointIsNeverReadUnderOtherSettings() {
        ReplayConfig config = config(new MemoryMode.Full(), ParPolicy.MAX, false, 100_000);
        ReplayConfig other = config(new MemoryMode.Full(), ParPolicy.MIN, false, 100_000);
        ReplayConfig laterEnd = config(new MemoryMode.Full(), ParPolicy.MAX, false, 200_000);
        assertThat(Checkpoint.settingsVersion(laterEnd)).as("the end of a replay is not a setting")
                .isEqualTo(Checkpoint.settingsVersion(config));
        assertThat(Checkpoint.settingsVersion(other)).isNotEqualTo(Checkpoint.settingsVersion(config));
        byte[] bytes = Checkpoint.toBytes(new Replay(config));
        assertThatThrownBy(() -> Checkpoint.fromBytes(other, bytes))
                .hasMessageContaining("made under settings version " + Checkpoint.settingsVersion(config))
                .hasMessageContaining("not the live " + Checkpoint.settingsVersion(other));
    }
}
