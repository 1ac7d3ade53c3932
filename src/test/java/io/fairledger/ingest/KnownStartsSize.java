package io.fairledger.ingest;

import java.util.ArrayList;
import java.util.List;

import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;
import io.fairledger.facts.LedgerFact;
import io.fairledger.facts.SourcedFact;

/**
 * The heap the consumer's memory of stored starts takes ({@link CommittedStarts}), per running task and per finished
 * task, with YARN container ids and a tenant path parsed per event as the consumer does: {@code ./mvnw -Pbench
 * test-compile exec:exec -Dbench.main=io.fairledger.ingest.KnownStartsSize} (docs/benchmarks.md, "Memory"). In the
 * ingest package because the set is package-private.
 */
public final class KnownStartsSize {

    private static final int TASKS = 200_000;

    private KnownStartsSize() {
    }

    public static void main(String[] args) {
        System.out.printf("a running task's start: %.0f bytes%n", bytesPerTask(false));
        System.out.printf("a finished task's start: %.0f bytes%n", bytesPerTask(true));
    }

    private static double bytesPerTask(boolean finish) {
        CommittedStarts starts = new CommittedStarts(TASKS);
        long before = usedHeap();
        for (int b = 0; b < TASKS / 1_000; b++) {
            List<SourcedFact> batch = new ArrayList<>();
            for (int i = b * 1_000; i < (b + 1) * 1_000; i++) {
                String task = "container_1795251600000_%06d_01_%07d".formatted(i / 1_000, i);
                batch.add(new SourcedFact(new LedgerFact.Event(new LedgerEvent.TaskStarted("bench", task,
                        TenantPath.parse("root.q" + (i % 1_000)), "application_1795251600000_" + (i / 1_000),
                        new ResourceVector(1_000L * (1 + i % 4), 1_024_000L * (1 + i % 8), 0), 1_000L * i),
                        "task:" + task + ":start"), "s" + i, "yarn", 0, i));
                if (finish) {
                    batch.add(new SourcedFact(new LedgerFact.Event(new LedgerEvent.TaskFinished("bench", task,
                            1_000L * i + 5_000), "task:" + task + ":finish"), "f" + i, "yarn", 0, i));
                }
            }
            starts.committed(batch);
        }
        long used = usedHeap() - before;
        if ((finish ? starts.finished() : starts.size()) != TASKS) {
            throw new IllegalStateException("expected " + TASKS + " starts held");
        }
        return used / (double) TASKS;
    }

    private static long usedHeap() {
        for (int i = 0; i < 4; i++) {
            System.gc();
        }
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }
}
