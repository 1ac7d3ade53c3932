package io.fairledger.accounting;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

import io.fairledger.accounting.InMemoryStoredFacts.Arrival;
import io.fairledger.accounting.PeriodCloser.ClosedPeriod;
import io.fairledger.facts.LedgerFact;
import io.fairledger.tenancy.LedgerSettings;

/**
 * Per-source watermarks (docs/accounting.md, "Per-source watermarks"): a period closes when every source not idle has
 * passed its end plus the lateness. The streamed closer, resuming from the watermarks it recorded, closes what the
 * plain computation over every arrival closes ({@link AllInMemoryCloser}), whenever it runs; a source that lags by more
 * than the lateness holds the periods open, so the closed statements are those of every fact; a silent one holds them
 * only until the idle timeout.
 */
class SourceWatermarkProperties {

    private static final String CLUSTER = "c";
    private static final long MINUTE = 60_000L;

    @Property(tries = 200)
    void streamedClosingEqualsTheAllInMemoryOneWithSeveralSources(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 40) int containers, @ForAll @IntRange(min = 1, max = 3) int sources,
            @ForAll @IntRange(min = 1, max = 60) int idleMinutes, @ForAll @IntRange(min = 0, max = 10) int tickTenths) {
        Random random = new Random(seed);
        List<Arrival> arrivals = arrivals(random, containers, sources);
        LedgerSettings settings = PeriodCloserProperties.settings(1.0);
        long idleMs = idleMinutes * MINUTE;

        PeriodCloserProperties.Store plain = new PeriodCloserProperties.Store();
        new AllInMemoryCloser(CLUSTER, plain, idleMs).closeDue(settings, arrivals);

        PeriodCloserProperties.Store streamed = new PeriodCloserProperties.Store();
        List<Arrival> arrived = new ArrayList<>();
        PeriodCloser closer = new PeriodCloser(CLUSTER, streamed, new InMemoryStoredFacts(CLUSTER, arrived,
                new TreeSet<>()), RecordedWatermarks.inMemory(), idleMs);
        Random ticks = new Random(seed + 1);
        for (int i = 0; i < arrivals.size(); i++) {
            arrived.add(arrivals.get(i));
            boolean endOfTransaction = i + 1 == arrivals.size()
                    || arrivals.get(i + 1).position() != arrivals.get(i).position();
            if (endOfTransaction && ticks.nextInt(10) < tickTenths) {
                closer.closeDue(settings);
            }
        }
        closer.closeDue(settings);
        assertThat(streamed.closed()).isEqualTo(plain.closed());
        Statistics.label("periods closed").collect(plain.closed().size() > 0);
        Statistics.label("sources idle at the end").collect(closer.idleSources().size());
    }

    /**
     * Two sources of one cluster, the second delivered after the first, its event times hours behind (more than the
     * lateness) but arriving within the idle timeout: every closed statement is the one {@code account} gives for all
     * the facts, without an adjustment.
     */
    @Property(tries = 50)
    void aLaggingSourceHoldsThePeriodsOpen(@ForAll long seed, @ForAll @IntRange(min = 2, max = 40) int containers) {
        Random random = new Random(seed);
        List<LedgerFact> a = new ArrayList<>();
        List<LedgerFact> b = new ArrayList<>();
        for (int i = 0; i < containers; i++) {
            (i % 2 == 0 ? a : b).addAll(PeriodCloserProperties.container(random, i));
        }
        a.sort(LedgerFeed.ORDER);
        b.sort(LedgerFeed.ORDER);
        List<Arrival> arrivals = new ArrayList<>();
        // the first transaction holds the first fact of each (a source counts from its first delivery); then the rest
        // of a, then the rest of b, one per transaction
        arrivals.add(new Arrival(1, a.get(0), "events-0", 0));
        arrivals.add(new Arrival(1, b.get(0), "events-1", 0));
        long position = 2;
        for (LedgerFact f : a.subList(1, a.size())) {
            arrivals.add(new Arrival(position++, f, "events-0", position * 1_000));
        }
        for (LedgerFact f : b.subList(1, b.size())) {
            arrivals.add(new Arrival(position++, f, "events-1", position * 1_000));
        }
        LedgerSettings settings = PeriodCloserProperties.settings(1.0);
        PeriodCloserProperties.Store store = new PeriodCloserProperties.Store();
        PeriodCloser closer = new PeriodCloser(CLUSTER, store, new InMemoryStoredFacts(CLUSTER, arrivals,
                new TreeSet<>()), RecordedWatermarks.inMemory(), 15 * MINUTE);
        closer.closeDue(settings);

        List<LedgerFact> all = new ArrayList<>(a);
        all.addAll(b);
        all.sort(LedgerFeed.ORDER);
        long closing = Math.min(a.get(a.size() - 1).at(), b.get(b.size() - 1).at());
        List<StatementView> offline = Books.statements(CLUSTER, settings, all, Instant.ofEpochMilli(closing))
                .stream().filter(s -> s.end().toEpochMilli() + settings.lateness().toMillis() <= closing).toList();
        assertThat(store.closed().stream().map(ClosedPeriod::statement).toList()).isEqualTo(offline);
        Statistics.label("periods closed").collect(offline.size());
    }

    /**
     * A source that delivers nothing more holds the periods open until the arrival clock is past its last delivery by
     * the idle timeout, not after.
     */
    @Property(tries = 50)
    void aSilentSourceHoldsThePeriodsOpenOnlyUntilTheIdleTimeout(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 40) int containers) {
        List<LedgerFact> a = new ArrayList<>();
        Random random = new Random(seed);
        for (int i = 0; i < containers; i++) {
            a.addAll(PeriodCloserProperties.container(random, i));
        }
        a.sort(LedgerFeed.ORDER);
        LedgerFact silentOnes = PeriodCloserProperties.container(random, containers).get(0);
        LedgerSettings settings = PeriodCloserProperties.settings(1.0);
        long lateness = settings.lateness().toMillis();
        long idleMs = 15 * MINUTE;
        // events-1 delivers one task start with events-0's first fact (a source counts from its first delivery), then
        // nothing; events-0 one fact a minute of arrival time
        List<Arrival> arrivals = new ArrayList<>();
        arrivals.add(new Arrival(1, a.get(0), "events-0", 0));
        arrivals.add(new Arrival(1, silentOnes, "events-1", 0));
        for (int i = 1; i < a.size(); i++) {
            arrivals.add(new Arrival(i + 1, a.get(i), "events-0", i * MINUTE));
        }
        PeriodCloserProperties.Store store = new PeriodCloserProperties.Store();
        List<Arrival> arrived = new ArrayList<>();
        PeriodCloser closer = new PeriodCloser(CLUSTER, store, new InMemoryStoredFacts(CLUSTER, arrived,
                new TreeSet<>()), RecordedWatermarks.inMemory(), idleMs);
        boolean silent = false;
        for (int i = 0; i < arrivals.size(); i++) {
            Arrival next = arrivals.get(i);
            arrived.add(next);
            if (i == 0) {
                continue;
            }
            closer.closeDue(settings);
            silent = next.arrivedAt() > idleMs;
            assertThat(closer.idleSources()).isEqualTo(silent ? List.of("events-1") : List.of());
            if (!silent) {
                assertThat(store.closed()).as("held open by events-1 while it is not idle")
                        .allMatch(c -> c.statement().end().toEpochMilli() + lateness <= silentOnes.at());
            }
        }
        List<LedgerFact> all = new ArrayList<>(a);
        all.add(silentOnes);
        all.sort(LedgerFeed.ORDER);
        long latest = a.get(a.size() - 1).at();
        long closing = silent ? latest : Math.min(latest, silentOnes.at());
        List<StatementView> offline = Books.statements(CLUSTER, settings, all, Instant.ofEpochMilli(closing))
                .stream().filter(s -> s.end().toEpochMilli() + lateness <= closing).toList();
        assertThat(store.closed().stream().map(ClosedPeriod::statement).toList()).isEqualTo(offline);
        Statistics.label("idle by the end").collect(silent);
    }

    /** Each container's facts on one of {@code sources} sources; arrival order and clock as a random lag shuffles. */
    private static List<Arrival> arrivals(Random random, int containers, int sources) {
        List<Arrival> out = new ArrayList<>();
        List<long[]> keyed = new ArrayList<>();
        List<LedgerFact> facts = new ArrayList<>();
        List<String> from = new ArrayList<>();
        for (int i = 0; i < containers; i++) {
            String source = "events-" + random.nextInt(sources);
            for (LedgerFact f : PeriodCloserProperties.container(random, i)) {
                facts.add(f);
                from.add(source);
            }
        }
        // each source lags by its own random delay of up to three hours, each fact by up to 20 minutes more
        long[] lag = new long[sources];
        for (int s = 0; s < sources; s++) {
            lag[s] = (long) (random.nextDouble() * 180 * MINUTE);
        }
        for (int i = 0; i < facts.size(); i++) {
            int s = Integer.parseInt(from.get(i).substring("events-".length()));
            keyed.add(new long[]{facts.get(i).at() + lag[s] + (long) (random.nextDouble() * 20 * MINUTE), i});
        }
        keyed.sort((x, y) -> Long.compare(x[0], y[0]));
        long position = 1;
        for (long[] k : keyed) {
            if (random.nextInt(3) == 0) {
                position++;
            }
            // a transaction's arrival time: the arrival of its first fact
            long arrivedAt = out.isEmpty() || out.get(out.size() - 1).position() != position
                    ? k[0]
                    : out.get(out.size() - 1).arrivedAt();
            out.add(new Arrival(position, facts.get((int) k[1]), from.get((int) k[1]), arrivedAt));
        }
        return out;
    }
}
