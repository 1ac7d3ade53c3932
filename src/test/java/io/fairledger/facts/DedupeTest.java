package io.fairledger.facts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;

/** The one duplicate rule: which of two facts with the same key is kept, whichever arrives first. */
class DedupeTest {

    @Test
    void anEqualStartReplacesNeitherWay() {
        LedgerFact running = start("root.a", 1_000);
        LedgerFact repeated = start("root.a", 1_000);
        assertThat(Dedupe.replaces(repeated, running)).isFalse();
        assertThat(Dedupe.replaces(running, repeated)).isFalse();
        assertThat(Dedupe.keptOfEachKey(List.of(running, repeated), f -> f)).containsExactly(running);
    }

    @Test
    void theEarlierStartReplacesTheLaterOne() {
        LedgerFact early = start("root.b", 500);
        LedgerFact late = start("root.a", 1_000);
        assertThat(Dedupe.replaces(early, late)).isTrue();
        assertThat(Dedupe.replaces(late, early)).isFalse();
    }

    @Test
    void atTheSameInstantTheEncodingFirstInCodePointOrderIsKeptInEitherArrivalOrder() {
        LedgerFact a = start("root.a", 1_000);
        LedgerFact b = start("root.b", 1_000);
        boolean aFirst = FactCodec.encode(a).compareTo(FactCodec.encode(b)) < 0;
        assertThat(Dedupe.replaces(a, b)).isEqualTo(aFirst);
        assertThat(Dedupe.replaces(b, a)).isEqualTo(!aFirst);
        LedgerFact kept = aFirst ? a : b;
        assertThat(Dedupe.keptOfEachKey(List.of(a, b), f -> f)).containsExactly(kept);
        assertThat(Dedupe.keptOfEachKey(List.of(b, a), f -> f)).containsExactly(kept);
    }

    @Test
    void onlyStartsReplace() {
        LedgerFact finish = new LedgerFact.Event(new LedgerEvent.TaskFinished("c", "t", 1_000), "task:t:finish");
        LedgerFact earlier = new LedgerFact.Event(new LedgerEvent.TaskFinished("c", "t", 500), "task:t:finish");
        assertThat(Dedupe.replaces(earlier, finish)).isFalse();
    }

    private static LedgerFact start(String tenant, long at) {
        return new LedgerFact.Event(new LedgerEvent.TaskStarted("c", "t", TenantPath.parse(tenant), "app",
                new ResourceVector(1000, 1024, 0), at), "task:t:start");
    }
}
