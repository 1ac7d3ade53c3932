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

    private double applied(String origin) {
        return registry.get(MetricNames.LIVE_FACTS).tag(MetricNames.ORIGIN, origin).counter().count();
    }

    private static SourcedFact sourced(LedgerFact fact, long offset) {
        return new SourcedFact(fact, "e" + offset, PARTITION.topic(), 0, offset);
    }
}
