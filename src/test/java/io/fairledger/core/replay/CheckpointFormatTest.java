package io.fairledger.core.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.fairledger.core.chargeback.ChargebackConfig;
import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.ledger.RandomStreams;
import io.fairledger.core.model.MemoryMode;
import io.fairledger.core.model.ParPolicy;
import io.fairledger.core.model.PricePlan;

/**
 * The bytes of checkpoint format {@link Checkpoint#FORMAT} stay what they were. The fixtures under
 * {@code src/test/resources/checkpoints/} were written from a replay of a noisy random stream stopped between two
 * events: format 2 by the code as it was before the ledger's state became the {@code LedgerState} records, format 3
 * when memory became thousandths of a MB and a checkpoint began to count its closed periods (holding only the
 * statements the server has not stored yet); format 2, which holds every closed period's statement, is still read. Each
 * must still be read and written back byte for byte, and the same replay made now must write exactly those bytes. A
 * change of the ledger's state or of its encoding fails here until the format version is raised and the fixtures are
 * written anew; while it passes, a stored checkpoint of this format stays readable.
 */
class CheckpointFormatTest {

    /** Events replayed before the fixture's checkpoint was taken; the stream is longer, so tasks are still running. */
    static final int APPLIED = 420;

    /** The configuration of fixture {@code name}: its memory mode and PAR policy, USAGE prices. */
    static ReplayConfig config(String name) {
        MemoryMode memory = switch (name) {
            case "full" -> new MemoryMode.Full();
            case "rounds" -> new MemoryMode.Rounds(20_000, 3_000);
            default -> throw new IllegalArgumentException(name);
        };
        ParPolicy par = name.equals("rounds") ? ParPolicy.MIN : ParPolicy.MAX;
        ChargebackConfig chargeback = ChargebackConfig.usage(
                new PricePlan("std", new BigDecimal("0.7"), new BigDecimal("0.05"), new BigDecimal("2.5")));
        return new ReplayConfig(RandomStreams.config(0.5, memory).withPar(par), new PeriodSchedule(0, 15_000, "p"),
                chargeback, Long.MAX_VALUE);
    }

    /** The replay fixture {@code name} holds: the first {@link #APPLIED} events of a noisy random stream. */
    static Replay replay(String name) {
        Replay replay = new Replay(config(name));
        events(name).subList(0, APPLIED).forEach(replay::apply);
        return replay;
    }

    /** The noisy random stream of fixture {@code name}. */
    static List<LedgerEvent> events(String name) {
        long seed = name.hashCode();
        return FeedNoise.addedTo(new ArrayList<>(RandomStreams.events(seed, 500, true)), seed, 500);
    }

    static byte[] fixture(String name) throws IOException {
        return fixture(name, Checkpoint.FORMAT);
    }

    static byte[] fixture(String name, int format) throws IOException {
        try (InputStream in = CheckpointFormatTest.class
                .getResourceAsStream("/checkpoints/format" + format + "-" + name + ".bin")) {
            assertThat(in).as("fixture %s of format %d", name, format).isNotNull();
            return in.readAllBytes();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"full", "rounds"})
    void aStoredCheckpointIsReadAndWrittenBackByteForByte(String name) throws IOException {
        byte[] stored = fixture(name);
        Replay restored = Checkpoint.fromBytes(config(name), stored);
        assertThat(Checkpoint.toBytes(restored)).isEqualTo(stored);
    }

    /**
     * Format 2, written when the ledger counted memory in whole MB (the same replay: its tasks are whole MB), is read
     * with every closed period's statement held and every amount of memory in thousandths of a MB: continued with the rest of the stream it closes the
     * statements the format-3 checkpoint of that replay closes. (Not byte for byte: the uncounted memory integral is
     * a double, and scaling it after the sum rounds differently from summing scaled terms.)
     */
    @ParameterizedTest
    @ValueSource(strings = {"full", "rounds"})
    void aFormat2CheckpointIsReadWithItsMemoryInThousandthsOfAMb(String name) throws IOException {
        Replay fromFormat2 = Checkpoint.fromBytes(config(name), fixture(name, 2));
        assertThat(fromFormat2.statements()).as("every closed period's statement, held").isNotEmpty()
                .isEqualTo(replay(name).statements());
        Replay fromFormat3 = Checkpoint.fromBytes(config(name), fixture(name));
        List<LedgerEvent> rest = events(name).subList(APPLIED, events(name).size());
        rest.forEach(fromFormat2::apply);
        rest.forEach(fromFormat3::apply);
        assertThat(fromFormat3.closedStatements()).hasSizeGreaterThan(fixtureStatements(name));
        assertThat(fromFormat2.closedStatements()).isEqualTo(fromFormat3.closedStatements());
    }

    private static int fixtureStatements(String name) throws IOException {
        return Checkpoint.fromBytes(config(name), fixture(name)).closedStatements().size();
    }

    @ParameterizedTest
    @ValueSource(strings = {"full", "rounds"})
    void theSameReplayWritesTheStoredBytes(String name) throws IOException {
        assertThat(Checkpoint.toBytes(replay(name))).isEqualTo(fixture(name));
    }
}
