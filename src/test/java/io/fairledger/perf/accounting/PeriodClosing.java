package io.fairledger.perf.accounting;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.fairledger.accounting.AllInMemoryCloser;
import io.fairledger.accounting.InMemoryStoredFacts.Arrival;
import io.fairledger.accounting.LedgerFeed;
import io.fairledger.accounting.PeriodCloser;
import io.fairledger.accounting.PeriodCloser.ClosedPeriod;
import io.fairledger.accounting.RecordedWatermarks;
import io.fairledger.accounting.StoredLedgerStates;
import io.fairledger.core.chargeback.ChargeModel;
import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;
import io.fairledger.core.replay.Checkpoint;
import io.fairledger.core.replay.Replay;
import io.fairledger.core.replay.ReplayConfig;
import io.fairledger.facts.LedgerFact;
import io.fairledger.facts.StoredTransaction;
import io.fairledger.tenancy.LedgerSettings;
import io.fairledger.tenancy.PeriodSettings;

/**
 * Load tool for closing a period without holding every fact (issue #15, streamed reads): N synthetic facts (YARN
 * containers of 100 queues over 20 days, daily periods, one hour of lateness) arrive in event-time order in
 * transactions of {@value #BATCH}; periods 1 to 18 are closed; then the transaction that brings the watermark past the
 * end of day 19 plus the lateness closes day 19. It times that close three ways: <b>before</b>, as the server did
 * (every stored fact decoded into a list, {@code FactCursor.arrivals}, then replayed at once: {@link
 * AllInMemoryCloser}); <b>streamed from the registration</b> ({@link PeriodCloser} with no stored state); and
 * <b>streamed from a checkpoint</b> (the newest one a live ledger storing one every {@value #CHECKPOINT_EVERY} facts
 * would have, restored from its bytes; it may be past the period's end, then the period is stated already). The "table" is compact arrays from which each read decodes fresh fact objects,
 * as the cursor decodes rows. For each it prints the time, the bytes the closing thread allocated and the peak heap
 * above the baseline (sampled every millisecond, garbage included), and that the three closed the same statement. In
 * memory only: PostgreSQL's part (the aggregate over the transactions, the read of the facts) is not in these figures.
 * Asserts nothing; docs/benchmarks.md has the results.
 *
 * <pre>
 * ./mvnw -B -Pbench test-compile exec:exec -Dbench.main=io.fairledger.perf.accounting.PeriodClosing -Dbench="1000000 100" -Dbench.jvm="-Xmx2g"
 * </pre>
 */
public final class PeriodClosing {

    private static final String CLUSTER = "bench-closing";
    private static final Instant START = Instant.parse("2026-11-01T00:00:00Z");
    private static final int DAYS = 20;
    private static final int BATCH = 500;
    private static final int CHECKPOINT_EVERY = 100_000;
    private static final int ROUNDS = 3;
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    private PeriodClosing() {
    }

    /** The stored facts, compact: per fact (event-time order) its instant, container and whether it is the start. */
    private record Table(long[] at, int[] container, boolean[] start, int[] vcores, int[] memoryGb, int[] queue) {

        int size() {
            return at.length;
        }

        /** The fact at {@code i}, decoded afresh. */
        LedgerFact fact(int i) {
            int c = container[i];
            String id = "container_" + c;
            if (start[i]) {
                return new LedgerFact.Event(new LedgerEvent.TaskStarted(CLUSTER, id,
                        TenantPath.parse("root.q" + queue[c]), "app_" + c / 50,
                        ResourceVector.of(vcores[c], 1024L * memoryGb[c], 0), at[i]), LedgerFact.taskKey(id, true));
            }
            return new LedgerFact.Event(new LedgerEvent.TaskFinished(CLUSTER, id, at[i]),
                    LedgerFact.taskKey(id, false));
        }

        /** The position of the transaction that stored fact {@code i}. */
        static long position(int i) {
            return i / BATCH + 1L;
        }

        /** The number of facts stored at or before {@code position}. */
        int storedUpTo(long position) {
            return (int) Math.min(size(), position * BATCH);
        }
    }

    /** The table as the closer reads it, up to {@code last}, with one stored state (or none). */
    private record Facts(Table table, long last, Checkpointed checkpoint) implements PeriodCloser.StoredFacts {

        @Override
        public void forEachTransactionAfter(long after, Consumer<StoredTransaction> sink) {
            for (long p = Math.max(1, after + 1); p <= last; p++) {
                int from = (int) ((p - 1) * BATCH);
                int to = table.storedUpTo(p);
                long earliest = Long.MAX_VALUE;
                long latest = Long.MIN_VALUE;
                for (int i = from; i < to; i++) {
                    earliest = Math.min(earliest, table.at()[i]);
                    latest = Math.max(latest, table.at()[i]);
                }
                sink.accept(
                        new StoredTransaction(p, 0, List.of(new StoredTransaction.Span("events-0", earliest, latest))));
            }
        }

        @Override
        public void forEachStored(long position, long fromMs, long untilMs, Consumer<LedgerFact> sink) {
            int to = table.storedUpTo(Math.min(position, last));
            int i = Arrays.binarySearch(table.at(), 0, to, fromMs);
            i = i < 0 ? -i - 1 : i;
            while (i > 0 && table.at()[i - 1] >= fromMs) {
                i--;
            }
            for (; i < to && table.at()[i] <= untilMs; i++) {
                sink.accept(table.fact(i));
            }
        }

        @Override
        public Optional<StoredLedgerStates.State> newestState(LedgerSettings settings, long position, long fromEndMs) {
            if (checkpoint == null || checkpoint.horizon() > position + 1) {
                return Optional.empty();
            }
            return Optional.of(checkpoint.restore(settings));
        }
    }

    /** A live ledger's checkpoint: its bytes, the horizon it was made at and its last applied instant. */
    private record Checkpointed(byte[] replay, byte[] feed, long horizon, long lastApplied, long facts) {

        StoredLedgerStates.State restore(LedgerSettings settings) {
            ReplayConfig config = settings.toReplayConfig(CLUSTER, settings.registeredAt());
            try {
                return new StoredLedgerStates.State(Checkpoint.fromBytes(config, replay),
                        LedgerFeed.read(new DataInputStream(new ByteArrayInputStream(feed))), lastApplied, facts);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int tenants = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        LedgerSettings settings = settings(tenants);
        Table table = table(count, tenants);
        long lateness = settings.lateness().toMillis();
        long day = Duration.ofDays(1).toMillis();
        // the transaction that closes day 19: the first whose latest fact reaches its end plus the lateness
        long closesDay19 = positionReaching(table, START.toEpochMilli() + 19 * day + lateness);
        long closesDay18 = positionReaching(table, START.toEpochMilli() + 18 * day + lateness);
        System.out.printf("%,d facts, %d tenants, daily periods, %s lateness, transactions of %d facts; day 19 closes "
                + "at transaction %,d with %,d facts stored%n", count, tenants, settings.lateness(), BATCH,
                closesDay19, table.storedUpTo(closesDay19));

        Store before18 = new Store();
        // the watermarks recorded where day 18 closed: the close of day 19 resumes from them
        RecordedWatermarks recorded = RecordedWatermarks.inMemory();
        new PeriodCloser(CLUSTER, before18, new Facts(table, closesDay18, null), recorded, Long.MAX_VALUE)
                .closeDue(settings);
        System.out.printf("%d periods closed before; timing the close of day 19, %d rounds each%n",
                before18.closed().size(), ROUNDS);
        Checkpointed checkpoint = checkpoint(table, settings, closesDay19);
        System.out.printf("newest checkpoint: after %,d facts (every %,d), %,d bytes%n", checkpoint.facts(),
                CHECKPOINT_EVERY, checkpoint.replay().length + checkpoint.feed().length);

        Map<String, Supplier<List<ClosedPeriod>>> ways = new LinkedHashMap<>();
        ways.put("before: every fact in a list", () -> {
            Store store = before18.copy();
            List<Arrival> arrivals = new ArrayList<>();
            for (int i = 0; i < table.storedUpTo(closesDay19); i++) {
                arrivals.add(new Arrival(Table.position(i), table.fact(i)));
            }
            return new AllInMemoryCloser(CLUSTER, store).closeDue(settings, arrivals);
        });
        ways.put("streamed from the registration", () -> new PeriodCloser(CLUSTER, before18.copy(),
                new Facts(table, closesDay19, null), recorded, Long.MAX_VALUE).closeDue(settings));
        ways.put("streamed from a checkpoint", () -> new PeriodCloser(CLUSTER, before18.copy(),
                new Facts(table, closesDay19, checkpoint), recorded, Long.MAX_VALUE).closeDue(settings));
        List<List<ClosedPeriod>> results = new ArrayList<>();
        for (Map.Entry<String, Supplier<List<ClosedPeriod>>> way : ways.entrySet()) {
            long[] nanos = new long[ROUNDS];
            long[] allocated = new long[ROUNDS];
            long[] peak = new long[ROUNDS];
            List<ClosedPeriod> closed = null;
            for (int r = 0; r < ROUNDS; r++) {
                long baseline = settledHeap();
                Sampler sampler = new Sampler();
                sampler.start();
                long allocatedBefore = allocatedBytes();
                long t0 = System.nanoTime();
                closed = way.getValue().get();
                nanos[r] = System.nanoTime() - t0;
                allocated[r] = allocatedBytes() - allocatedBefore;
                peak[r] = sampler.peak() - baseline;
            }
            results.add(closed);
            System.out.printf("%-32s time %s; allocated %s MB; peak heap above baseline %s MB; closed %s%n",
                    way.getKey(), median(nanos, 1_000_000), median(allocated, 1 << 20), median(peak, 1 << 20),
                    closed.stream().map(c -> c.statement().period()).toList());
        }
        System.out.printf("same closed statements all three ways: %b%n",
                results.get(0).equals(results.get(1)) && results.get(1).equals(results.get(2)));
    }

    private static long positionReaching(Table table, long instant) {
        long watermark = Long.MIN_VALUE;
        for (int i = 0; i < table.size(); i++) {
            watermark = Math.max(watermark, table.at()[i]);
            if (watermark >= instant && (i + 1 == table.size() || Table.position(i + 1) != Table.position(i))) {
                return Table.position(i);
            }
        }
        throw new IllegalStateException("the facts never reach " + Instant.ofEpochMilli(instant));
    }

    /** The checkpoint a live ledger storing one every {@value #CHECKPOINT_EVERY} facts has last made by {@code closing}. */
    private static Checkpointed checkpoint(Table table, LedgerSettings settings, long closing) throws IOException {
        int held = table.storedUpTo(closing) / CHECKPOINT_EVERY * CHECKPOINT_EVERY;
        ReplayConfig config = settings.toReplayConfig(CLUSTER, settings.registeredAt());
        Replay replay = new Replay(config);
        LedgerFeed feed = new LedgerFeed(config.cluster().capacity());
        List<LedgerFact> facts = new ArrayList<>(held);
        for (int i = 0; i < held; i++) {
            facts.add(table.fact(i));
        }
        feed.apply(facts, replay);
        ByteArrayOutputStream feedBytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(feedBytes)) {
            feed.write(out);
        }
        return new Checkpointed(Checkpoint.toBytes(replay), feedBytes.toByteArray(), Table.position(held - 1) + 1,
                table.at()[held - 1], held);
    }

    private static long settledHeap() {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 10; i++) {
            System.gc();
            long now = MEMORY.getHeapMemoryUsage().getUsed();
            if (now >= used) {
                return now;
            }
            used = now;
        }
        return used;
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    /** The highest used heap seen while it runs, sampled every millisecond. */
    private static final class Sampler extends Thread {
        private volatile boolean running = true;
        private volatile long peak;

        Sampler() {
            setDaemon(true);
        }

        @Override
        public void run() {
            while (running) {
                peak = Math.max(peak, MEMORY.getHeapMemoryUsage().getUsed());
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        long peak() throws InterruptedException {
            running = false;
            join();
            return Math.max(peak, MEMORY.getHeapMemoryUsage().getUsed());
        }
    }

    private static String median(long[] values, long unit) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        StringBuilder out = new StringBuilder().append(sorted[sorted.length / 2] / unit).append(" (");
        for (int i = 0; i < values.length; i++) {
            out.append(i == 0 ? "" : ", ").append(values[i] / unit);
        }
        return out.append(')').toString();
    }

    /** Closed statements in memory: first insert wins. */
    private static final class Store implements PeriodCloser.ClosedStatements {
        private final Map<String, ClosedPeriod> byPeriod = new LinkedHashMap<>();

        @Override
        public List<ClosedPeriod> closed() {
            return List.copyOf(byPeriod.values());
        }

        @Override
        public ClosedPeriod store(ClosedPeriod period) {
            return byPeriod.computeIfAbsent(period.statement().period(), k -> period);
        }

        Store copy() {
            Store out = new Store();
            out.byPeriod.putAll(byPeriod);
            return out;
        }
    }

    private static LedgerSettings settings(int tenants) {
        List<LedgerSettings.Tenant> list = new ArrayList<>();
        for (int q = 0; q < tenants; q++) {
            list.add(new LedgerSettings.Tenant("root.q" + q, 1 + q % 3, null, ""));
        }
        return new LedgerSettings(START, new LedgerSettings.Capacity(2_000, 8_192_000, 0), null, null, null, null,
                new PeriodSettings(null, Duration.ofDays(1)), Duration.ofHours(1),
                new LedgerSettings.Chargeback(ChargeModel.USAGE, List.of(new LedgerSettings.Plan("std",
                        new BigDecimal("0.04"), new BigDecimal("0.005"), BigDecimal.ONE)), "std", null, 2, null),
                list);
    }

    /** {@code count} facts of containers of 1 minute to 2 hours, a start and a finish each, in event-time order. */
    private static Table table(int count, int tenants) {
        Random rnd = new Random(15);
        int containers = count / 2;
        long span = Duration.ofDays(DAYS).toMillis() - Duration.ofHours(3).toMillis();
        long[] startOf = new long[containers];
        long[] endOf = new long[containers];
        int[] vcores = new int[containers];
        int[] memoryGb = new int[containers];
        int[] queue = new int[containers];
        for (int c = 0; c < containers; c++) {
            startOf[c] = START.toEpochMilli() + (long) (rnd.nextDouble() * span);
            endOf[c] = startOf[c] + 60_000 + rnd.nextInt(7_200_000);
            vcores[c] = 1 + rnd.nextInt(4);
            memoryGb[c] = 1 + rnd.nextInt(8);
            queue[c] = rnd.nextInt(tenants);
        }
        // order by LedgerFeed.ORDER: event time, then dedupe key ("task:<id>:start"/":finish")
        Integer[] order = new Integer[2 * containers];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> {
            long ta = a % 2 == 0 ? startOf[a / 2] : endOf[a / 2];
            long tb = b % 2 == 0 ? startOf[b / 2] : endOf[b / 2];
            if (ta != tb) {
                return Long.compare(ta, tb);
            }
            return key(a).compareTo(key(b));
        });
        long[] at = new long[order.length];
        int[] container = new int[order.length];
        boolean[] start = new boolean[order.length];
        for (int i = 0; i < order.length; i++) {
            container[i] = order[i] / 2;
            start[i] = order[i] % 2 == 0;
            at[i] = start[i] ? startOf[container[i]] : endOf[container[i]];
        }
        return new Table(at, container, start, vcores, memoryGb, queue);
    }

    private static String key(int fact) {
        return LedgerFact.taskKey("container_" + fact / 2, fact % 2 == 0);
    }
}
