package io.fairledger.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusMock;
import io.quarkus.test.junit.QuarkusTest;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.fairledger.accounting.ClosingService;
import io.fairledger.accounting.ClusterWriter;
import io.fairledger.accounting.SettingsInForce;
import io.fairledger.core.chargeback.Statement;
import io.fairledger.facts.FactCursor;
import io.fairledger.facts.LedgerFact;
import io.fairledger.tenancy.LedgerSettings;
import io.fairledger.testsupport.EventPublisher;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;
import io.fairledger.testsupport.TestClusters;
import io.fairledger.testsupport.YarnWorkload;

/**
 * Checkpoints on the real server (PostgreSQL and Kafka): the live ledger stores checkpoints as periods close (its
 * state at every period's end, all kept while within {@code fairledger.live.checkpoint.periods}); a late
 * fact rebuilds it from the newest checkpoint before the fact's event time and the stored facts after it (not from
 * the registration); a restart (a ledger built afresh from the stored checkpoints) gives the same view as a full
 * replay of every stored fact, and as the running ledger. The checkpoints an update passes are saved after the view it
 * made is published (the grants of a late fact do not wait for them), and saved all the same.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class CheckpointRestartTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant START = Instant.parse("2026-11-21T00:00:00Z");
    private static final String CLUSTER = "checkpoint-yarn";
    private static final long GRANT_INTERVAL_MS = 10_000;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Inject
    LiveLedgers live;

    @Inject
    BoundedReplays replays;

    @Inject
    FactCursor cursor;

    @Inject
    SettingsInForce inForce;

    @Inject
    DataSource dataSource;

    @Inject
    ClusterWriter writer;

    @Inject
    MeterRegistry registry;

    /** Each checkpoint of {@link #CLUSTER} saved: how many facts it holds, and the published view's then. */
    private final List<long[]> saves = new CopyOnWriteArrayList<>();
    /** The ends of the ended periods whose statements each checkpoint of {@link #CLUSTER} saved holds. */
    private final List<List<Long>> savedEnded = new CopyOnWriteArrayList<>();
    /** The end of the last period of {@link #CLUSTER} stored closed when each checkpoint was saved (0: none). */
    private final List<Long> savedClosedUntil = new CopyOnWriteArrayList<>();

    @Inject
    ClosingService closing;

    /** Records every save of a checkpoint of {@link #CLUSTER} with what the grants were read from at that moment. */
    @BeforeEach
    void recordSaves() {
        LedgerCheckpoints recording = new LedgerCheckpoints() {
            @Override
            public void save(String clusterId, String version, Stored stored, String openPeriod, byte[] state,
                    int keep, int periods) throws SQLException {
                if (clusterId.equals(CLUSTER)) {
                    long viewFacts = live.find(CLUSTER).map(LiveView::facts).orElse(-1L);
                    Instant closedUntil = closing.closedUntil(CLUSTER);
                    savedClosedUntil.add(closedUntil == null ? 0 : closedUntil.toEpochMilli());
                    savedEnded.add(LiveLedger.restore(CLUSTER, inForce.settings(CLUSTER), state)
                            .view(GRANT_INTERVAL_MS).ended().stream().map(e -> e.period().end()).toList());
                    // last, so that every save a snapshot of saves holds is in the other two lists
                    saves.add(new long[]{stored.facts(), viewFacts});
                }
                super.save(clusterId, version, stored, openPeriod, state, keep, periods);
            }
        };
        recording.dataSource = dataSource;
        recording.writer = writer;
        recording.registry = registry;
        QuarkusMock.installMockForType(recording, LedgerCheckpoints.class);
    }

    @Test
    void aLateFactRebuildsFromACheckpointAndARestartEqualsTheFullReplay() throws Exception {
        String settings = YarnWorkload.settings(START, 4).replace("\"period\":{\"length\":\"PT1H\"}",
                "\"period\":{\"length\":\"PT2M\"},\"allowedLateness\":\"PT1M\"");
        TestClusters.registerYarn(CLUSTER, settings);

        List<String> lines = new ArrayList<>(YarnWorkload.lines(CLUSTER, START, 900, 4, 23));
        lines.sort(Comparator.comparingLong(CheckpointRestartTest::eventTime));
        int third = lines.size() / 3;
        // one container of the last third, held back to arrive late: all its events come after the second third
        long secondEnds = eventTime(lines.get(2 * third - 1));
        String lateContainer = lines.subList(2 * third, lines.size()).stream()
                .filter(l -> l.contains("\"state\":\"ALLOCATED\"") && eventTime(l) > secondEnds + 1_000)
                .map(l -> l.replaceAll(".*\"containerId\":\"([^\"]+)\".*", "$1")).findFirst().orElseThrow();
        List<String> late = lines.stream().filter(l -> l.contains(lateContainer)).toList();
        long lateAt = late.stream().mapToLong(CheckpointRestartTest::eventTime).min().orElseThrow();

        for (List<String> part : List.of(lines.subList(0, third), lines.subList(third, 2 * third),
                lines.subList(2 * third, lines.size()).stream().filter(l -> !late.contains(l)).toList())) {
            EventPublisher.publishYarn(bootstrap, CLUSTER, part);
            // a RUNNING after its ALLOCATED stores no fact of its own
            awaitApplied(part.stream().filter(l -> !l.contains("\"state\":\"RUNNING\""))
                    .mapToLong(CheckpointRestartTest::eventTime).max().orElseThrow());
        }
        List<Long> eventTimes = cursor.facts(CLUSTER).stream().map(LedgerFact::at).toList();
        // every period ended, as a ledger that keeps them states them (the server's holds those not closed only)
        List<Statement> ended = new LiveLedger(CLUSTER, inForce.settings(CLUSTER),
                cursor.facts(CLUSTER)).view(GRANT_INTERVAL_MS).ended();
        assertThat(ended).as("periods ended").hasSizeGreaterThan(1);
        List<Long> periodEnds = new ArrayList<>();
        for (io.fairledger.core.chargeback.Statement period : ended) {
            long end = period.period().end();
            eventTimes.stream().filter(t -> t < end).mapToLong(Long::longValue).max().ifPresent(periodEnds::add);
        }
        assertThat(periodEnds).as("periods ended after a fact").isNotEmpty();
        // the periods are closed, and their checkpoints stored, after the tick that applied the facts published its
        // view: wait for the close, not for the view
        Awaitility.await().atMost(90, TimeUnit.SECONDS).pollInterval(200, TimeUnit.MILLISECONDS)
                .untilAsserted(() -> assertThat(checkpointTimes())
                        .as("the state at the end of every ended period is kept").containsAll(periodEnds));
        List<Long> stored = checkpointTimes();
        long expectedFrom = stored.stream().filter(t -> t < lateAt).mapToLong(Long::longValue).max()
                .orElseThrow(() -> new AssertionError("no checkpoint before " + lateAt + " among " + stored));

        int savedBeforeLate = saves.size();
        long factsBeforeLate = cursor.facts(CLUSTER).size();
        EventPublisher.publishYarn(bootstrap, CLUSTER, late);
        Awaitility.await().atMost(90, TimeUnit.SECONDS).pollInterval(500, TimeUnit.MILLISECONDS)
                .untilAsserted(() -> assertThat(live.find(CLUSTER)).map(LiveView::facts).hasValue(
                        (long) cursor.facts(CLUSTER).size()));
        assertThat(checkpointTimes()).as("the rebuild stored the period-end checkpoints it passed")
                .anyMatch(t -> t >= lateAt);
        assertThat(saves).as("each checkpoint is saved once the view holding its facts is published (facts of the "
                + "checkpoint, of the view then)").allSatisfy(s -> assertThat(s[1]).isGreaterThanOrEqualTo(s[0]));
        List<long[]> saved = List.copyOf(saves); // a snapshot: checkpoints may still be saved meanwhile
        assertThat(saved.subList(savedBeforeLate, saved.size()))
                .as("the checkpoints the late fact's rebuild passed, saved once the grants count it (facts of the "
                        + "checkpoint, of the view then; %d before the late fact)", factsBeforeLate)
                .isNotEmpty().allSatisfy(s -> assertThat(s[1]).isGreaterThan(factsBeforeLate));
        List<Long> closedAtSave = List.copyOf(savedClosedUntil);
        assertThat(closedAtSave.subList(savedBeforeLate, saved.size())).as("periods were closed before the late fact")
                .allSatisfy(c -> assertThat(c).isPositive());
        for (int i = 0; i < saved.size(); i++) {
            long closedUntil = closedAtSave.get(i);
            assertThat(savedEnded.get(i)).as("checkpoint %d of %d (%d before the late fact) carries no period closed "
                    + "when it was taken but the last (closed until %d)", i, saved.size(), savedBeforeLate, closedUntil)
                    .allSatisfy(end -> assertThat(end).isGreaterThanOrEqualTo(closedUntil));
        }
        BoundedReplays.Rebuild rebuild = replays.lastRebuild(CLUSTER).orElseThrow();
        assertThat(rebuild.from()).as("the late fact rebuilt from a checkpoint, not the registration").isPresent();
        assertThat(rebuild.from().get().eventTimeMs()).as("the newest checkpoint before the late fact")
                .isEqualTo(expectedFrom);
        List<LedgerFact> facts = cursor.facts(CLUSTER);
        assertThat(rebuild.factsReplayed()).as("only the facts after the checkpoint were replayed")
                .isEqualTo(facts.stream().filter(f -> f.at() > expectedFrom).count())
                .isLessThan(facts.size());

        System.out.printf("[fairledger-test] late fact at %d rebuilt from the checkpoint at %d (of %s): %d of %d facts "
                + "replayed%n", lateAt, expectedFrom, stored, rebuild.factsReplayed(), facts.size());
        LedgerSettings ledgerSettings = inForce.settings(CLUSTER);
        LiveView full = new LiveLedger(CLUSTER, ledgerSettings, facts).view(GRANT_INTERVAL_MS);
        assertSameView(live.find(CLUSTER).orElseThrow(), full);

        long newest = checkpointTimes().get(0);
        LiveLedger restarted = replays.build(CLUSTER, ledgerSettings, cursor.horizon());
        BoundedReplays.Rebuild restart = replays.lastRebuild(CLUSTER).orElseThrow();
        assertThat(restart.from()).as("a restart starts from the newest checkpoint").isPresent();
        assertThat(restart.from().get().eventTimeMs()).isEqualTo(newest);
        assertThat(restart.factsReplayed()).isEqualTo(facts.size() - restart.from().get().facts());
        assertSameView(restarted.view(GRANT_INTERVAL_MS), full);

        // a rebuild from an older checkpoint (the newer ones lost to a late fact) takes checkpoints that hold only
        // the last period closed and those not closed
        long olderStart = stored.get(stored.size() - 4);
        List<Long> endsAfter = ended.stream().map(e -> e.period().end()).filter(end -> end > olderStart).sorted()
                .toList();
        long firstEnd = endsAfter.get(0);
        long closedUntil = endsAfter.get(1);
        assertThat(rebuiltFrom(olderStart, replays.passed(CLUSTER)))
                .as("without the periods closed (a rebuild of a test or an offline command): all carried on")
                .anySatisfy(ends -> assertThat(ends).contains(firstEnd));
        assertThat(rebuiltFrom(olderStart, replays.passed(CLUSTER, () -> Instant.ofEpochMilli(closedUntil))))
                .as("with the periods closed through the second one ending after that checkpoint: the last kept")
                .allSatisfy(ends -> assertThat(ends).allSatisfy(end -> assertThat(end)
                        .isGreaterThanOrEqualTo(closedUntil)))
                .anySatisfy(ends -> assertThat(ends).contains(closedUntil));
        assertSameView(live.find(CLUSTER).orElseThrow(), full);
    }

    /**
     * Builds the ledger of {@link #CLUSTER} again from its checkpoint at {@code start}, the newer ones deleted, and
     * stores the checkpoints it passed into {@code passed}; the ends of the ended periods each of those holds.
     */
    private List<List<Long>> rebuiltFrom(long start, PassedCheckpoints passed) throws Exception {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("DELETE FROM ledger_checkpoint WHERE cluster_id = ? "
                        + "AND event_time_ms > ?")) {
            ps.setString(1, CLUSTER);
            ps.setLong(2, start);
            ps.executeUpdate();
        }
        int before = savedEnded.size();
        replays.build(CLUSTER, inForce.settings(CLUSTER), cursor.horizon(), passed);
        passed.store();
        assertThat(replays.lastRebuild(CLUSTER).orElseThrow().from()).map(LedgerCheckpoints.Stored::eventTimeMs)
                .hasValue(start);
        List<List<Long>> out = List.copyOf(savedEnded.subList(before, savedEnded.size()));
        assertThat(out).as("checkpoints the rebuild passed").isNotEmpty();
        return out;
    }

    /**
     * {@code actual} says what {@code expected} says; of the ended periods it holds the last ones only, those its closer
     * had not stored when it was taken ({@link LiveLedger#release}).
     */
    private static void assertSameView(LiveView actual, LiveView expected) {
        assertThat(LiveViewValues.beforeEnded(actual)).usingRecursiveComparison()
                .withComparatorForType(Double::compare, Double.class).isEqualTo(LiveViewValues.beforeEnded(expected));
        assertThat(expected.ended()).endsWith(actual.ended().toArray(Statement[]::new));
    }

    private void awaitApplied(long lastEventTime) {
        Awaitility.await().atMost(90, TimeUnit.SECONDS).pollInterval(500, TimeUnit.MILLISECONDS)
                .untilAsserted(() -> {
                    // no view yet is a failed assertion (retried), not an exception that ends the wait
                    assertThat(live.find(CLUSTER)).as("the cluster's live view").isPresent();
                    LiveView view = live.find(CLUSTER).get();
                    assertThat(view.asOf()).isEqualTo(Instant.ofEpochMilli(lastEventTime));
                    assertThat(view.facts()).isEqualTo(cursor.facts(CLUSTER).size());
                });
    }

    /** The event times of the cluster's stored checkpoints, newest first. */
    private List<Long> checkpointTimes() throws Exception {
        List<Long> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT event_time_ms FROM ledger_checkpoint "
                        + "WHERE cluster_id = ? ORDER BY event_time_ms DESC")) {
            ps.setString(1, CLUSTER);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getLong(1));
                }
            }
        }
        return out;
    }

    private static long eventTime(String line) {
        try {
            return JSON.readTree(line).get("eventTime").asLong();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
