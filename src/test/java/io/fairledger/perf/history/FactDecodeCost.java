package io.fairledger.perf.history;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

import com.sun.management.ThreadMXBean;

import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;
import io.fairledger.facts.FactCodec;
import io.fairledger.facts.LedgerFact;
import io.fairledger.perf.ProcessStats;

/**
 * What reading a stored fact back costs the live ledgers' tick, without PostgreSQL: {@link FactCodec#decode} of
 * {@code --facts} rows of {@link HistoryScale}'s kind (a YARN start and finish per container, 1,000 queues), once as
 * stored (the flat form, read without a parser) and once with a space after each colon (the form only the general JSON
 * parser reads, what every row cost before issue #33). Prints bytes allocated (this thread's) and nanoseconds per fact;
 * asserts nothing.
 *
 * <pre>
 * ./mvnw -B -Pbench test-compile exec:exec -Dapicurio.skip=true \
 *     -Dbench.main=io.fairledger.perf.history.FactDecodeCost -Dbench="--facts 2000000"
 * </pre>
 */
public final class FactDecodeCost {

    private record Row(String kind, String key, long at, String json) {
    }

    private FactDecodeCost() {
    }

    public static void main(String[] args) {
        int facts = args.length == 2 && args[0].equals("--facts") ? Integer.parseInt(args[1]) : 2_000_000;
        List<Row> stored = rows(Math.min(facts, 200_000));
        List<Row> spaced = stored.stream()
                .map(r -> new Row(r.kind(), r.key(), r.at(), r.json().replace("\":", "\": "))).toList();
        System.out.printf("%,d facts decoded per form; load average %s%n", facts, ProcessStats.loadAverage());
        for (int round = 0; round < 2; round++) { // the first round warms the JIT up
            measure("stored form (no parser)", stored, facts, round == 1);
            measure("spaced form (JSON parser)", spaced, facts, round == 1);
        }
    }

    private static void measure(String form, List<Row> rows, int facts, boolean print) {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        long bytes = threads.getThreadAllocatedBytes(id);
        long cpu = threads.getCurrentThreadCpuTime();
        long checksum = 0;
        for (int i = 0; i < facts; i++) {
            Row r = rows.get(i % rows.size());
            checksum += FactCodec.decode(r.kind(), "bench-history", r.at(), r.key(), r.json()).at();
        }
        long allocated = threads.getThreadAllocatedBytes(id) - bytes;
        long cpuNs = threads.getCurrentThreadCpuTime() - cpu;
        if (print) {
            System.out.printf("%-28s %,8.0f bytes/fact %,8.0f ns/fact CPU (checksum %d)%n", form,
                    (double) allocated / facts, (double) cpuNs / facts, checksum);
        }
    }

    private static List<Row> rows(int count) {
        List<Row> out = new ArrayList<>(count);
        for (int i = 0; out.size() < count; i++) {
            String task = "container_1790000000000_0001_01_%06d".formatted(i);
            ResourceVector size = ResourceVector.ofMillicores(1000 * (1 + i % 4), 2048L * (1 + i % 3), 0);
            LedgerFact start = new LedgerFact.Event(new LedgerEvent.TaskStarted("bench-history", task,
                    TenantPath.parse("root.q" + i % 1000), "application_1790000000000_" + i / 10, size, 1000L * i),
                    LedgerFact.taskKey(task, true));
            LedgerFact finish = new LedgerFact.Event(new LedgerEvent.TaskFinished("bench-history", task, 1000L * i + 1),
                    LedgerFact.taskKey(task, false));
            for (LedgerFact f : List.of(start, finish)) {
                out.add(new Row(FactCodec.kind(f), f.dedupeKey(), f.at(), FactCodec.encode(f)));
            }
        }
        return out;
    }
}
