package io.fairledger.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;
import io.fairledger.facts.FreshFacts;
import io.fairledger.facts.LedgerFact;

/**
 * A cluster's recent facts replay exactly what PostgreSQL would give from the same point: a model of the stored rows
 * (one per key, an earlier start of a task replacing the stored one) is read where the window does not hold them.
 */
class RecentFactsTest {

    private static final String CLUSTER = "c1";
    private static final Comparator<LedgerFact> ORDER = Comparator.comparingLong(LedgerFact::at)
            .thenComparing(LedgerFact::dedupeKey);

    /** The stored rows, by key, and how many times they were read. */
    private final Map<String, LedgerFact> stored = new HashMap<>();
    private int reads;

    @Test
    void replaysWhatWasReadAndAbsorbedAsPostgresqlWouldGiveIt() throws SQLException {
        RecentFacts recent = new RecentFacts(1_000_000);
        store(List.of(start("t1", 10), finish("t1", 20), start("t2", 15)));
        assertThat(replay(recent, Long.MIN_VALUE, "5")).as("first: read, and held").isFalse();
        assertThat(recent.held()).isEqualTo(3);

        List<LedgerFact> tick = List.of(start("t3", 12), finish("t2", 30), start("t4", 40));
        absorb(recent, "5", "6", tick);
        assertThat(replay(recent, 11, "6")).as("from memory").isTrue();
        assertThat(replay(recent, Long.MIN_VALUE, "6")).isTrue();
        assertThat(reads).isEqualTo(1);
    }

    @Test
    void anEarlierStartOfATaskReplacesTheOneHeld() throws SQLException {
        RecentFacts recent = new RecentFacts(1_000_000);
        store(List.of(start("t1", 100), finish("t1", 200)));
        replay(recent, 0, "1");
        absorb(recent, "1", "2", List.of(start("t1", 50)));
        assertThat(replay(recent, 0, "2")).isTrue();
        assertThat(recent.held()).isEqualTo(2);
        // replaced by one before the window's start: the one held goes, the new one is not held
        absorb(recent, "2", "3", List.of(start("t1", -5)));
        assertThat(replay(recent, 0, "3")).isTrue();
        assertThat(recent.held()).isEqualTo(1);
    }

    @Test
    void aTickFromAnotherHorizonOrAFailedReadLetsTheWindowGo() throws SQLException {
        RecentFacts recent = new RecentFacts(1_000_000);
        store(List.of(start("t1", 10)));
        replay(recent, 0, "1");
        absorb(recent, "7", "8", List.of(start("t2", 20)));
        assertThat(recent.held()).isZero();
        assertThat(recent.holdsThrough(CLUSTER, "1")).isFalse();
        assertThat(replay(recent, 0, "8")).as("read again").isFalse();

        assertThatThrownBy(() -> recent.replaySince(CLUSTER, -1, "9", sink -> {
            sink.accept(start("t9", 1));
            throw new SQLException("connection lost");
        }, fact -> {
        })).isInstanceOf(SQLException.class);
        assertThat(recent.held()).isZero();
        assertThat(recent.holdsThrough(CLUSTER, "9")).isFalse();
    }

    @Test
    void holdsAtMostItsBoundLettingTheOldestInstantsGo() throws SQLException {
        RecentFacts recent = new RecentFacts(160);
        List<LedgerFact> facts = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            facts.add(start("t" + i, i / 2));
        }
        store(facts);
        assertThat(replay(recent, 0, "1")).isFalse();
        assertThat(recent.held()).isBetween(160L, 170L);
        assertThat(replay(recent, 150, "1")).as("the newest are held").isTrue();
        assertThat(replay(recent, 50, "1")).as("the oldest were let go").isFalse();
        assertThat(recent.held()).isBetween(160L, 170L);
        assertThat(replay(recent, 199, "1")).isTrue();
    }

    @Test
    void zeroHoldsNothingAndANegativeBoundIsRefused() throws SQLException {
        RecentFacts recent = new RecentFacts(0);
        store(List.of(start("t1", 10)));
        assertThat(replay(recent, 0, "1")).isFalse();
        assertThat(replay(recent, 0, "1")).isFalse();
        assertThat(recent.held()).isZero();
        assertThatThrownBy(() -> new RecentFacts(-1)).hasMessageContaining("recent facts must be >= 0, got -1");
    }

    /** Late facts, replaced starts and trimming at random: every replay equals the stored rows from its point on. */
    @Test
    void randomTicksReplayTheStoredRows() throws SQLException {
        Random random = new Random(33);
        RecentFacts recent = new RecentFacts(300);
        long latest = 0;
        int task = 0;
        int horizon = 1;
        replay(recent, Long.MIN_VALUE, "1");
        for (int tick = 0; tick < 300; tick++) {
            List<LedgerFact> added = new ArrayList<>();
            for (int i = random.nextInt(20); i > 0; i--) {
                latest += random.nextInt(3);
                long at = random.nextInt(10) == 0 ? latest - random.nextInt(200) : latest;
                if (random.nextInt(8) == 0 && task > 0) {
                    String again = "t" + random.nextInt(task);
                    LedgerFact held = stored.get(key(again));
                    if (held != null && held.at() > at && added.stream().noneMatch(f -> f.dedupeKey()
                            .equals(key(again)))) {
                        added.add(start(again, at));
                    }
                } else {
                    added.add(random.nextBoolean()
                            ? start("t" + task++, at)
                            : finish("t" + random.nextInt(task + 1),
                                    at));
                }
            }
            added.removeIf(f -> !f.dedupeKey().endsWith(":start") && stored.containsKey(f.dedupeKey()));
            added = new ArrayList<>(added.stream().collect(Collectors.toMap(LedgerFact::dedupeKey, f -> f,
                    (a, b) -> a)).values());
            added.sort(Comparator.comparingLong(LedgerFact::at));
            String from = Integer.toString(horizon);
            String to = Integer.toString(++horizon);
            absorb(recent, from, to, added);
            replay(recent, latest - random.nextInt(1_000), to);
            assertThat(recent.held()).isLessThanOrEqualTo(300 + 300 / 16);
        }
        assertThat(reads).as("some replays read, some did not").isBetween(2, 250);
    }

    private void store(List<LedgerFact> facts) {
        facts.forEach(f -> stored.put(f.dedupeKey(), f));
    }

    private void absorb(RecentFacts recent, String from, String to, List<LedgerFact> facts) {
        store(facts);
        recent.absorb(CLUSTER, from, to, facts);
    }

    /** Replays from {@code fromMs}, checks it gave the stored rows from there on; whether it came from memory. */
    private boolean replay(RecentFacts recent, long fromMs, String horizon) throws SQLException {
        List<LedgerFact> expected = stored.values().stream().filter(f -> f.at() >= fromMs).sorted(ORDER).toList();
        FreshFacts.Read read = sink -> {
            reads++;
            expected.forEach(sink);
        };
        List<LedgerFact> replayed = new ArrayList<>();
        boolean fromMemory = recent.replaySince(CLUSTER, fromMs, horizon, read, replayed::add);
        assertThat(replayed).as("in event-time order").isSortedAccordingTo(Comparator.comparingLong(LedgerFact::at));
        replayed.sort(ORDER);
        assertThat(replayed).as("replayed from %d at %s", fromMs, horizon).containsExactlyElementsOf(expected);
        return fromMemory;
    }

    private static String key(String task) {
        return "task:" + task + ":start";
    }

    private static LedgerFact start(String task, long at) {
        return new LedgerFact.Event(new LedgerEvent.TaskStarted(CLUSTER, task, TenantPath.parse("root.a"), "app",
                new ResourceVector(1_000, 1_024, 0), at), key(task));
    }

    private static LedgerFact finish(String task, long at) {
        return new LedgerFact.Event(new LedgerEvent.TaskFinished(CLUSTER, task, at), "task:" + task + ":finish");
    }
}
