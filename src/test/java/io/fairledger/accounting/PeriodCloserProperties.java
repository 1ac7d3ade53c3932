package io.fairledger.accounting;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Random;
import java.util.TreeSet;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

import io.fairledger.accounting.InMemoryStoredFacts.Arrival;
import io.fairledger.accounting.PeriodCloser.ClosedPeriod;
import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;
import io.fairledger.facts.LedgerFact;
import io.fairledger.tenancy.LedgerSettings;
import io.fairledger.tenancy.PeriodSettings;

/**
 * Closed statements depend only on the facts, the order they arrived in and the settings in force, never on when the
 * books were looked at: the same arrivals and settings changes, with the closer run after every transaction or only
 * now and then (a server's ticks, reads and restarts fall anywhere), store the same closed periods. And the streamed
 * closer, starting its replays from stored states (checkpoints) or from the registration, closes the same statements
 * as the plain computation over every fact in memory ({@link AllInMemoryCloser}).
 */
class PeriodCloserProperties {

    private static final String CLUSTER = "c";
    private static final Instant T0 = Instant.parse("2026-11-20T00:00:00Z");
    private static final long HOUR = 3_600_000L;

    /** One random history: arrivals grouped in transactions, and the settings in force after each transaction. */
    private record History(List<Arrival> arrivals, Map<Long, LedgerSettings> changesAfter) {
    }

    @Property(tries = 200)
    void closedStatementsDoNotDependOnWhenTheCloserRuns(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 40) int containers, @ForAll @IntRange(min = 0, max = 3) int changes) {
        History h = history(new Random(seed), containers, changes);
        List<ClosedPeriod> everyTransaction = run(h, new Random(seed + 1), 1.0, Mode.CHECKPOINTED);
        List<ClosedPeriod> nowAndThen = run(h, new Random(seed + 2), 0.2, Mode.CHECKPOINTED);
        List<ClosedPeriod> onlyAtChanges = run(h, new Random(seed + 3), 0.0, Mode.CHECKPOINTED);
        assertThat(nowAndThen).isEqualTo(everyTransaction);
        assertThat(onlyAtChanges).isEqualTo(everyTransaction);
        Statistics.label("late facts adjusted").collect(everyTransaction.stream()
                .anyMatch(c -> c.statement().lines().stream().anyMatch(l -> !l.adjustments().isEmpty())));
        for (ClosedPeriod c : everyTransaction) {
            StatementView s = c.statement();
            assertThat(s.state()).isEqualTo(StatementView.CLOSED);
            assertThat(s.totalCharge()).as("period %s total includes its adjustments", s.period()).isEqualTo(
                    s.lines().stream().map(StatementView.Line::total).reduce(BigDecimal.ZERO, BigDecimal::add));
            for (StatementView.Line l : s.lines()) {
                assertThat(l.balance()).isEqualByComparingTo(l.lent().subtract(l.owed()));
            }
        }
    }

    /**
     * The streamed closer, from checkpoints or from the registration, stores what the computation over every fact in
     * memory stores, with late facts and settings changes, whenever it runs.
     */
    @Property(tries = 200)
    void streamedClosingEqualsTheAllInMemoryOne(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 40) int containers, @ForAll @IntRange(min = 0, max = 3) int changes,
            @ForAll @IntRange(min = 0, max = 10) int tickTenths) {
        History h = history(new Random(seed), containers, changes);
        double ticks = tickTenths / 10.0;
        List<ClosedPeriod> allInMemory = run(h, new Random(seed + 1), ticks, Mode.ALL_IN_MEMORY);
        assertThat(run(h, new Random(seed + 1), ticks, Mode.FROM_REGISTRATION)).isEqualTo(allInMemory);
        assertThat(run(h, new Random(seed + 1), ticks, Mode.CHECKPOINTED)).isEqualTo(allInMemory);
        assertThat(run(h, new Random(seed + 1), ticks, Mode.HELD)).isEqualTo(allInMemory);
        Statistics.label("adjustments").collect(allInMemory.stream()
                .anyMatch(c -> c.statement().lines().stream().anyMatch(l -> !l.adjustments().isEmpty())));
        Statistics.label("settings kept").collect(allInMemory.stream().map(ClosedPeriod::settings).distinct().count());
        // the shared replay of a recomputation and a close is what most of these runs check
        Statistics.label("a close continued the replay of a recomputation")
                .coverage(checker -> checker.check(true).percentage(p -> p >= 20));
        Statistics.label("statements taken from a held ledger")
                .coverage(checker -> checker.check(true).percentage(p -> p >= 20));
    }

    /**
     * Also when a change shortens or lengthens the allowed lateness, so that the watermark at the latest closing
     * position may be past the next due instant already (the closer then reads from the first transaction).
     */
    @Property(tries = 100)
    void streamedClosingEqualsTheAllInMemoryOneWhenTheLatenessChanges(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 40) int containers, @ForAll @IntRange(min = 1, max = 3) int changes,
            @ForAll @IntRange(min = 0, max = 10) int tickTenths) {
        History h = history(new Random(seed), containers, changes, true);
        double ticks = tickTenths / 10.0;
        List<ClosedPeriod> allInMemory = run(h, new Random(seed + 1), ticks, Mode.ALL_IN_MEMORY);
        assertThat(run(h, new Random(seed + 1), ticks, Mode.CHECKPOINTED)).isEqualTo(allInMemory);
        assertThat(run(h, new Random(seed + 1), ticks, Mode.HELD)).isEqualTo(allInMemory);
    }

    /**
     * A close reads only the transactions stored after the latest position a period was closed at, not every
     * transaction of the cluster: run after every transaction, each run reads what was stored since the last close.
     */
    @Property(tries = 100)
    void aCloseReadsOnlyTheTransactionsStoredSinceTheLastClose(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 40) int containers) {
        History h = history(new Random(seed), containers, 0);
        Store store = new Store();
        List<Arrival> arrived = new ArrayList<>();
        InMemoryStoredFacts facts = new InMemoryStoredFacts(CLUSTER, arrived, new TreeSet<>());
        PeriodCloser closer = new PeriodCloser(CLUSTER, store, facts);
        List<Arrival> all = h.arrivals();
        for (int i = 0; i < all.size(); i++) {
            arrived.add(all.get(i));
            if (i + 1 < all.size() && all.get(i + 1).position() == all.get(i).position()) {
                continue;
            }
            long lastClosed = store.closed().stream().mapToLong(ClosedPeriod::position).max()
                    .orElse(PeriodCloser.BEFORE_ANY);
            long since = arrived.stream().filter(a -> a.position() > lastClosed).map(Arrival::position).distinct()
                    .count();
            long before = facts.transactionsRead();
            closer.closeDue(settings(1.0));
            assertThat(facts.transactionsRead() - before).isEqualTo(since);
        }
        Statistics.label("periods closed").collect(store.closed().size() > 0);
    }

    /** Without late facts and settings changes, the closed statements are those {@code account} computes. */
    @Property(tries = 100)
    void inOrderArrivalsCloseWhatTheOfflineReplayStates(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 40) int containers) {
        Random random = new Random(seed);
        List<LedgerFact> facts = new ArrayList<>();
        for (int i = 0; i < containers; i++) {
            facts.addAll(container(random, i));
        }
        facts.sort(LedgerFeed.ORDER);
        List<Arrival> arrivals = new ArrayList<>();
        for (int i = 0; i < facts.size(); i++) {
            arrivals.add(new Arrival(i + 1L, facts.get(i)));
        }
        LedgerSettings settings = settings(1.0);
        Store store = new Store();
        new PeriodCloser(CLUSTER, store, new InMemoryStoredFacts(CLUSTER, arrivals, new TreeSet<>()))
                .closeDue(settings);
        long watermark = facts.get(facts.size() - 1).at();
        List<StatementView> offline = Books.statements(CLUSTER, settings, facts, Instant.ofEpochMilli(watermark))
                .stream().filter(s -> StatementView.CLOSED.equals(s.state())).toList();
        assertThat(store.closed().stream().map(ClosedPeriod::statement).toList()).isEqualTo(offline);
    }

    /**
     * How the closer computes: streamed from checkpoints, as that and from the statements a live ledger holding every
     * fact stored so far has stated (when no fact stored after the closing position changes them), streamed from the
     * registration, or every fact in memory.
     */
    private enum Mode {
        CHECKPOINTED, HELD, FROM_REGISTRATION, ALL_IN_MEMORY
    }

    private static List<ClosedPeriod> run(History h, Random ticks, double tickProbability, Mode mode) {
        Store store = new Store();
        List<Arrival> arrived = new ArrayList<>();
        // a live ledger checkpoints after some transactions: at the horizon just after them
        NavigableSet<Long> checkpoints = new TreeSet<>();
        Random checkpointing = new Random(h.arrivals().size());
        h.arrivals().forEach(a -> {
            if ((mode == Mode.CHECKPOINTED || mode == Mode.HELD) && checkpointing.nextInt(3) == 0) {
                checkpoints.add(a.position() + 1);
            }
        });
        InMemoryStoredFacts facts = new InMemoryStoredFacts(CLUSTER, arrived, checkpoints);
        if (mode == Mode.HELD) {
            facts.holding(new Random(h.arrivals().size() + 7L));
        }
        PeriodCloser streamed = new PeriodCloser(CLUSTER, store, facts);
        AllInMemoryCloser plain = new AllInMemoryCloser(CLUSTER, store);
        LedgerSettings inForce = settings(1.0);
        List<Arrival> all = h.arrivals();
        for (int i = 0; i < all.size(); i++) {
            arrived.add(all.get(i));
            boolean endOfTransaction = i + 1 == all.size() || all.get(i + 1).position() != all.get(i).position();
            if (!endOfTransaction) {
                continue;
            }
            LedgerSettings change = h.changesAfter().get(all.get(i).position());
            if (change != null) {
                if (mode == Mode.ALL_IN_MEMORY) {
                    plain.closeEnded(inForce, arrived);
                } else {
                    streamed.closeEnded(inForce);
                }
                inForce = change;
            } else if (ticks.nextDouble() < tickProbability) {
                closeDue(mode, streamed, plain, inForce, arrived);
            }
        }
        closeDue(mode, streamed, plain, inForce, arrived);
        if (mode == Mode.CHECKPOINTED) {
            Statistics.label("a replay started from a stored state").collect(facts.statesUsed() > 0);
        }
        if (mode != Mode.ALL_IN_MEMORY) {
            Statistics.label("a close continued the replay of a recomputation").collect(
                    streamed.replays().continued() > 0);
        }
        if (mode == Mode.HELD) {
            Statistics.label("statements taken from a held ledger").collect(streamed.replays().held() > 0);
        }
        return store.closed();
    }

    private static void closeDue(Mode mode, PeriodCloser streamed, AllInMemoryCloser plain, LedgerSettings settings,
            List<Arrival> arrived) {
        if (mode == Mode.ALL_IN_MEMORY) {
            plain.closeDue(settings, arrived);
        } else {
            streamed.closeDue(settings);
        }
    }

    private static History history(Random random, int containers, int changes) {
        return history(random, containers, changes, false);
    }

    /** With {@code lateness}, each change also sets the allowed lateness to 0 to 90 minutes. */
    private static History history(Random random, int containers, int changes, boolean lateness) {
        List<LedgerFact> facts = new ArrayList<>();
        for (int i = 0; i < containers; i++) {
            facts.addAll(container(random, i));
        }
        // arrival order: event time plus a random delay of up to two hours, so some facts are late
        List<long[]> keyed = new ArrayList<>();
        for (int i = 0; i < facts.size(); i++) {
            keyed.add(new long[]{facts.get(i).at() + (long) (random.nextDouble() * 2 * HOUR), i});
        }
        keyed.sort((a, b) -> Long.compare(a[0], b[0]));
        List<Arrival> arrivals = new ArrayList<>();
        long position = 1;
        for (long[] k : keyed) {
            if (random.nextInt(3) == 0) {
                position++;
            }
            arrivals.add(new Arrival(position, facts.get((int) k[1])));
        }
        Map<Long, LedgerSettings> changesAfter = new LinkedHashMap<>();
        for (int c = 0; c < changes; c++) {
            long at = arrivals.get(random.nextInt(arrivals.size())).position();
            double weightB = 1 + random.nextInt(4);
            changesAfter.put(at, lateness
                    ? settings(weightB, Duration.ofMinutes(15L * random.nextInt(7)))
                    : settings(weightB));
        }
        return new History(arrivals, changesAfter);
    }

    /** A container of root.a or root.b holding 1-4 vcores somewhere in the first eight hours. */
    static List<LedgerFact> container(Random random, int i) {
        String id = "c" + i;
        TenantPath tenant = TenantPath.parse(random.nextBoolean() ? "root.a" : "root.b");
        long start = T0.toEpochMilli() + (long) (random.nextDouble() * 8 * HOUR);
        long end = start + 60_000L + (long) (random.nextDouble() * 2 * HOUR);
        ResourceVector size = ResourceVector.of(1 + random.nextInt(4), 0, 0);
        return List.of(
                new LedgerFact.Event(new LedgerEvent.TaskStarted(CLUSTER, id, tenant, "app", size, start),
                        "task:" + id + ":start"),
                new LedgerFact.Event(new LedgerEvent.TaskFinished(CLUSTER, id, end), "task:" + id + ":finish"));
    }

    /** Hourly periods, 30 minutes of lateness, eta 0.5, USAGE at 1 per vcore-hour; root.b weighs {@code weightB}. */
    static LedgerSettings settings(double weightB) {
        return settings(weightB, Duration.ofMinutes(30));
    }

    /** As {@link #settings(double)}, with {@code lateness} allowed. */
    static LedgerSettings settings(double weightB, Duration lateness) {
        return new LedgerSettings(T0, new LedgerSettings.Capacity(10, 10240, 0), 0.5,
                new LedgerSettings.Memory("FULL", null, null, null), null, null,
                new PeriodSettings(null, Duration.ofHours(1)), lateness,
                new LedgerSettings.Chargeback(null,
                        List.of(new LedgerSettings.Plan("std", BigDecimal.ONE, BigDecimal.ZERO, BigDecimal.ZERO)),
                        "std", null, 2, "EUR"),
                List.of(new LedgerSettings.Tenant("root.a", 1, null, ""),
                        new LedgerSettings.Tenant("root.b", weightB, null, "")));
    }

    /** Closed statements in memory: first insert wins, as the table's primary key. */
    static final class Store implements PeriodCloser.ClosedStatements {
        private final Map<String, ClosedPeriod> byPeriod = new LinkedHashMap<>();

        @Override
        public List<ClosedPeriod> closed() {
            return List.copyOf(byPeriod.values());
        }

        @Override
        public ClosedPeriod store(ClosedPeriod period) {
            return byPeriod.computeIfAbsent(period.statement().period(), k -> period);
        }

        /** Without their lines, as the server's table reads them for the closer. */
        @Override
        public List<ClosedPeriod> periods() {
            return byPeriod.values().stream().map(c -> {
                StatementView s = c.statement();
                return new ClosedPeriod(new StatementView(s.cluster(), s.period(), s.start(), s.end(), s.state(),
                        s.model(), s.currency(), s.totalCharge(), List.of(), s.prorated(), null), c.settings(),
                        c.position());
            }).toList();
        }
    }
}
