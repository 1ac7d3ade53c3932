package io.fairledger.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import io.fairledger.accounting.SettingsInForce;
import io.fairledger.config.FairledgerConfig;
import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;
import io.fairledger.facts.FactCursor;
import io.fairledger.facts.FactWriter;
import io.fairledger.facts.LedgerFact;
import io.fairledger.facts.SourcedFact;
import io.fairledger.ingest.BatchStore;
import io.fairledger.observability.MetricNames;
import io.fairledger.tenancy.TenancyService;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;
import io.fairledger.testsupport.YarnWorkload;

/**
 * The live ledgers' ticks apply the facts this replica's consumer stored from memory and read the others (another
 * replica's) from PostgreSQL, merged in event-time order: the view equals a ledger built from every stored fact.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class FreshFactsTickTest {

    private static final Instant START = Instant.parse("2026-11-21T00:00:00Z");
    private static final TopicPartition PARTITION = new TopicPartition("fresh-facts-test", 0);

    @Inject
    BatchStore store;

    @Inject
    DataSource dataSource;

    @Inject
    LiveLedgers ledgers;

    @Inject
    FactCursor cursor;

    @Inject
    SettingsInForce inForce;

    @Inject
    TenancyService tenancy;

    @Inject
    FairledgerConfig config;

    @Inject
    MeterRegistry registry;

    @Test
    void factsFromMemoryAndFactsOfAnotherWriterInterleavedEqualALedgerOfEveryStoredFact() throws Exception {
        String cluster = "fresh-mixed";
        LiveViewsTest.register(cluster, YarnWorkload.settings(START, 3));
        double memoryBefore = applied("memory");
        double readBefore = applied("database");
        Random random = new Random(7);
        long window = START.toEpochMilli() + 60_000;
        long offset = 0;
        for (int batch = 0; batch < 60; batch++, window += 60_000) {
            List<SourcedFact> mine = new ArrayList<>();
            List<SourcedFact> theirs = new ArrayList<>();
            for (int task = 0; task < 20; task++) {
                // a task's start and finish fall in its window, every other task written by the other writer
                String id = "b" + batch + "t" + task;
                long start = window + random.nextInt(30_000);
                List<SourcedFact> to = task % 2 == 0 ? mine : theirs;
                to.add(sourced(new LedgerFact.Event(new LedgerEvent.TaskStarted(cluster, id,
                        TenantPath.parse("root.q" + random.nextInt(3)), "app", new ResourceVector(1000, 2048, 0),
                        start), "task:" + id + ":start"), offset++));
                to.add(sourced(new LedgerFact.Event(new LedgerEvent.TaskFinished(cluster, id,
                        start + 1 + random.nextInt(29_000)), "task:" + id + ":finish"), offset++));
            }
            // another replica's transaction, then this one's consumer batch, as close together as they come
            try (Connection c = dataSource.getConnection()) {
                c.setAutoCommit(false);
                FactWriter.insert(c, theirs);
                c.commit();
            }
            store.commit("fresh-mixed-group", mine, List.of(), Map.of(PARTITION, offset));
        }

        int stored = cursor.facts(cluster).size();
        assertThat(stored).isEqualTo(60 * 40);
        Awaitility.await().atMost(60, TimeUnit.SECONDS).pollInterval(200, TimeUnit.MILLISECONDS)
                .until(() -> ledgers.find(cluster).map(LiveView::facts).orElse(0L) == stored);
        LiveView live = ledgers.find(cluster).orElseThrow();
        LiveLedger everyFact = new LiveLedger(cluster,
                inForce.settings(cluster, tenancy.configurationVersion(cluster)), cursor.facts(cluster));
        assertThat(LiveViewValues.beforeEnded(live)).usingRecursiveComparison()
                .withComparatorForType(Double::compare, Double.class)
                .isEqualTo(LiveViewValues.beforeEnded(everyFact.view(config.grants().interval().toMillis())));
        assertThat(applied("memory") - memoryBefore).as("this replica's facts applied from memory").isPositive();
        assertThat(applied("database") - readBefore).as("the other writer's facts read back").isPositive();
    }

    /**
     * Late facts, of this replica and of another writer, and an earlier start of a stored task (which replaces its
     * row) rebuild the ledger from the facts it holds in memory, not read back; the view equals a ledger built from
     * every stored fact.
     */
    @Test
    void lateFactsAndAReplacedStartRebuildFromRecentFactsInMemory() throws Exception {
        String cluster = "fresh-late";
        LiveViewsTest.register(cluster, YarnWorkload.settings(START, 3));
        Random random = new Random(11);
        long offset = 1_000_000;
        storeTasks(cluster, "early", START.toEpochMilli() + 60_000, 40, random, offset);
        awaitEveryStoredFact(cluster);
        double replayedBefore = replayed("memory");
        double rebuildsBefore = registry.get(MetricNames.LIVE_REBUILDS).counter().count();
        for (int batch = 0; batch < 10; batch++) {
            // each batch late by minutes: before the latest fact applied
            offset = storeTasks(cluster, "late" + batch, START.toEpochMilli() + 60_000 + random.nextInt(1_000_000), 6,
                    random, offset + 100);
            Thread.sleep(150);
        }
        // another writer stores an earlier start of a task already stored: its row is replaced
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            FactWriter.insert(c, List.of(sourced(new LedgerFact.Event(new LedgerEvent.TaskStarted(cluster, "early-t0",
                    TenantPath.parse("root.q1"), "app", new ResourceVector(2000, 1024, 0), START.toEpochMilli()),
                    "task:early-t0:start"), offset + 1)));
            c.commit();
        }
        assertThat(cursor.taskStart(cluster, "early-t0").at()).as("the earlier start replaced the row")
                .isEqualTo(START.toEpochMilli());
        awaitEveryStoredFact(cluster);
        assertThat(LiveViewValues.beforeEnded(ledgers.find(cluster).orElseThrow())).usingRecursiveComparison()
                .withComparatorForType(Double::compare, Double.class)
                .isEqualTo(LiveViewValues.beforeEnded(everyStoredFact(cluster)));
        assertThat(registry.get(MetricNames.LIVE_REBUILDS).counter().count() - rebuildsBefore).isPositive();
        assertThat(replayed("memory") - replayedBefore).as("rebuilds replayed the recent facts from memory")
                .isPositive();
    }

    /** Stores {@code tasks} tasks starting in the minute from {@code fromMs}, half by another writer. */
    private long storeTasks(String cluster, String name, long fromMs, int tasks, Random random, long offset)
            throws Exception {
        List<SourcedFact> mine = new ArrayList<>();
        List<SourcedFact> theirs = new ArrayList<>();
        for (int task = 0; task < tasks; task++) {
            String id = name + "-t" + task;
            long start = fromMs + random.nextInt(60_000);
            List<SourcedFact> to = task % 2 == 0 ? mine : theirs;
            to.add(sourced(new LedgerFact.Event(new LedgerEvent.TaskStarted(cluster, id,
                    TenantPath.parse("root.q" + random.nextInt(3)), "app", new ResourceVector(1000, 2048, 0), start),
                    "task:" + id + ":start"), offset++));
            to.add(sourced(new LedgerFact.Event(new LedgerEvent.TaskFinished(cluster, id,
                    start + 1 + random.nextInt(600_000)), "task:" + id + ":finish"), offset++));
        }
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            FactWriter.insert(c, theirs);
            c.commit();
        }
        store.commit("fresh-late-group", mine, List.of(), Map.of(PARTITION, offset));
        return offset;
    }

    private void awaitEveryStoredFact(String cluster) throws Exception {
        int stored = cursor.facts(cluster).size();
        Awaitility.await().atMost(60, TimeUnit.SECONDS).pollInterval(200, TimeUnit.MILLISECONDS)
                .until(() -> ledgers.find(cluster).map(LiveView::facts).orElse(0L) == stored);
    }

    private LiveView everyStoredFact(String cluster) throws Exception {
        return new LiveLedger(cluster, inForce.settings(cluster, tenancy.configurationVersion(cluster)),
                cursor.facts(cluster)).view(config.grants().interval().toMillis());
    }

    private double replayed(String origin) {
        return registry.get(MetricNames.LIVE_REPLAYED).tag(MetricNames.ORIGIN, origin).counter().count();
    }

    private double applied(String origin) {
        return registry.get(MetricNames.LIVE_FACTS).tag(MetricNames.ORIGIN, origin).counter().count();
    }

    private static SourcedFact sourced(LedgerFact fact, long offset) {
        return new SourcedFact(fact, "e" + offset, PARTITION.topic(), 0, offset);
    }
}
