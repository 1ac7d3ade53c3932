package io.fairledger.core.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import io.fairledger.core.model.ClusterConfig;
import io.fairledger.core.model.MemoryMode;

/**
 * A ledger's {@link LedgerState} holds all of it: a ledger restored from a snapshot gives the same snapshot, goes on
 * to the same state and the same accounts as the original under the rest of a stream, and the codec gives back an
 * equal state.
 */
class LedgerStateTest {

    @Provide
    Arbitrary<MemoryMode> memory() {
        return Arbitraries.of(new MemoryMode.Full(), new MemoryMode.Rounds(20_000, 3_000),
                new MemoryMode.Decay(30_000));
    }

    @Property(tries = 200)
    void aRestoredLedgerGoesOnAsTheOriginal(@ForAll long seed, @ForAll @IntRange(min = 1, max = 200) int count,
            @ForAll("memory") MemoryMode memory, @ForAll @IntRange(min = 0, max = 1000) int cutPermille)
            throws IOException {
        ClusterConfig config = RandomStreams.config(0.5, memory);
        List<LedgerEvent> events = RandomStreams.events(seed, count, true);
        int cut = events.size() * cutPermille / 1000;
        ClusterLedger original = new ClusterLedger(config);
        events.subList(0, cut).forEach(original::apply);

        LedgerState state = original.snapshot();
        assertThat(original.snapshot()).as("a snapshot moves nothing").isEqualTo(state);
        assertThat(decoded(encoded(state))).isEqualTo(state);
        ClusterLedger restored = ClusterLedger.restore(config, state);
        assertThat(restored.snapshot()).isEqualTo(state);

        for (LedgerEvent e : events.subList(cut, events.size())) {
            assertThat(restored.apply(e)).isEqualTo(original.apply(e));
        }
        long later = original.clock() + 7_000;
        assertThat(restored.accounts(later)).isEqualTo(original.accounts(later));
        assertThat(restored.snapshot()).isEqualTo(original.snapshot());
    }

    @Test
    void aStateNamingANodeItDoesNotHoldIsRefused() {
        ClusterConfig config = RandomStreams.config(0.5, new MemoryMode.Full());
        ClusterLedger ledger = new ClusterLedger(config);
        RandomStreams.events(3, 60, false).forEach(ledger::apply);
        LedgerState state = ledger.snapshot();
        List<LedgerState.Node> nodes = new ArrayList<>(state.nodes());
        LedgerState.Node last = nodes.remove(nodes.size() - 1);
        nodes.add(new LedgerState.Node(last.path(), nodes.size(), last.weight(), last.discountOverride(),
                last.pricePlan(), last.share(), last.eta(), last.held(), last.ownPending(), last.pending(),
                last.pendingByApplication(), last.runningTasks(), last.rates(), last.integrals(), last.pool(),
                last.quantum()));
        LedgerState selfParent = new LedgerState(state.clock(), state.capacity(), state.outcomes(), nodes,
                state.quanta(), state.tasks());
        assertThatThrownBy(() -> ClusterLedger.restore(config, selfParent))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("names parent");
        LedgerState noTasksTable = new LedgerState(state.clock(), state.capacity(), state.outcomes(), state.nodes(),
                state.quanta(), new LedgerState.Tasks(List.of(), state.tasks().running(),
                        state.tasks().currentBucket(), state.tasks().heap(), state.tasks().later()));
        assertThat(state.tasks().running()).isNotEmpty();
        assertThatThrownBy(() -> ClusterLedger.restore(config, noTasksTable))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("names task");
    }

    private static byte[] encoded(LedgerState state) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            LedgerCodec.write(state, out);
        }
        return bytes.toByteArray();
    }

    private static LedgerState decoded(byte[] bytes) throws IOException {
        return LedgerCodec.read(new DataInputStream(new ByteArrayInputStream(bytes)));
    }
}
