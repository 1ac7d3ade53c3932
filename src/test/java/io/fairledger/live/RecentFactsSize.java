package io.fairledger.live;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;
import io.fairledger.facts.FactCodec;
import io.fairledger.facts.LedgerFact;

/**
 * The heap the live ledgers' recent facts take per fact ({@link RecentFacts}), YARN containers' starts and finishes
 * decoded from their stored text as a rebuild reads them: {@code ./mvnw -Pbench test-compile exec:exec
 * -Dbench.main=io.fairledger.live.RecentFactsSize} (docs/benchmarks.md, "Memory"). In the live package because the
 * window is package-private.
 */
public final class RecentFactsSize {

    private static final int TASKS = 200_000;

    private RecentFactsSize() {
    }

    public static void main(String[] args) throws Exception {
        RecentFacts recent = new RecentFacts(2L * TASKS);
        long before = usedHeap();
        List<LedgerFact> facts = new ArrayList<>();
        for (int i = 0; i < TASKS; i++) {
            String task = "container_1795251600000_%06d_01_%07d".formatted(i / 1_000, i);
            facts.add(stored(new LedgerFact.Event(new LedgerEvent.TaskStarted("bench", task,
                    TenantPath.parse("root.q" + (i % 1_000)), "application_1795251600000_" + (i / 1_000),
                    new ResourceVector(1_000L * (1 + i % 4), 1_024_000L * (1 + i % 8), 0), 1_000L * i),
                    "task:" + task + ":start")));
            facts.add(stored(new LedgerFact.Event(new LedgerEvent.TaskFinished("bench", task, 1_000L * i + 5_000),
                    "task:" + task + ":finish")));
        }
        facts.sort(Comparator.comparingLong(LedgerFact::at));
        recent.replaySince("bench", Long.MIN_VALUE, "1", sink -> facts.forEach(sink), fact -> {
        });
        facts.clear();
        long used = usedHeap() - before;
        if (recent.held() != 2L * TASKS) {
            throw new IllegalStateException("expected " + 2 * TASKS + " facts held, got " + recent.held());
        }
        System.out.printf("a recent fact (half starts, half finishes): %.0f bytes%n", used / (double) (2 * TASKS));
    }

    /** The fact as a rebuild reads it back: decoded from its stored text, no string shared with another fact. */
    private static LedgerFact stored(LedgerFact fact) {
        return FactCodec.decode(FactCodec.kind(fact), fact.clusterId(), fact.at(), new String(fact.dedupeKey()),
                FactCodec.encode(fact));
    }

    private static long usedHeap() {
        for (int i = 0; i < 4; i++) {
            System.gc();
        }
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }
}
