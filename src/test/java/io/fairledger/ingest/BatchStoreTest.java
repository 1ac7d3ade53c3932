package io.fairledger.ingest;

import static io.fairledger.ingest.CommittedStartsTest.finish;
import static io.fairledger.ingest.CommittedStartsTest.start;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.facts.FactCursor;
import io.fairledger.facts.FactPartitions;
import io.fairledger.facts.FactWriter;
import io.fairledger.facts.LedgerFact;
import io.fairledger.facts.SourcedFact;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;

/**
 * Both ways a batch reaches {@code ledger_fact}: copied straight in when none of its keys is stored, and keys first, then
 * only the new facts, when one is, with the same result as a row-by-row insert that skips stored keys; one fact per key
 * across the month partitions, an earlier start moving its task's start into an earlier month.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class BatchStoreTest {

    private static final String CLUSTER = "fact-store";
    private static final TopicPartition PARTITION = new TopicPartition("fact-store-test", 0);

    @Inject
    BatchStore store;

    @Inject
    FactCursor cursor;

    @Inject
    DataSource dataSource;

    @Test
    void aBatchWithStoredKeysStoresOnlyItsNewFactsAndMovesTheOffsetOnce() throws SQLException {
        String horizon = cursor.horizon();
        int first = store.commit("fact-store-group", batch(0, start(CLUSTER, "t1"), start(CLUSTER, "t2"),
                finish(CLUSTER, "t1")), List.of(), Map.of(PARTITION, 3L));
        assertThat(first).as("no key stored yet: copied straight in").isEqualTo(3);
        assertThat(transactionsOf(0, 2)).as("one transaction id for the batch, as the live ledger reads it")
                .isEqualTo(1);

        // t2's start again (a YARN finish repeats it), a redelivered finish, and the batch's own duplicate
        int second = store.commit("fact-store-group", batch(3, start(CLUSTER, "t2"), finish(CLUSTER, "t2"),
                finish(CLUSTER, "t1"), start(CLUSTER, "t3"), start(CLUSTER, "t3")), List.of(), Map.of(PARTITION, 8L));
        assertThat(second).as("t2's finish and t3's start are new").isEqualTo(2);

        assertThat(keys()).containsExactlyInAnyOrder("task:t1:start", "task:t2:start", "task:t1:finish",
                "task:t2:finish", "task:t3:start");
        assertThat(sourceOffset("task:t2:start")).as("the first delivery's row stays").isEqualTo(1);
        assertThat(sourceOffset("task:t3:start")).as("within a batch the first wins").isEqualTo(6);
        assertThat(store.offsets("fact-store-group", List.of(PARTITION))).containsEntry(PARTITION, 8L);
        List<LedgerFact> read = cursor.between(horizon, cursor.horizon()).get(CLUSTER);
        assertThat(read).as("the live ledger reads both batches once").hasSize(5);
    }

    @Test
    void anEarlierStartOfAStoredTaskReplacesItAndIsReadAgainByTheLiveLedgers() throws SQLException {
        String early = "fact-store-early";
        store.commit("fact-store-early-group", batch(100, start(early, "early", 5_000)), List.of(),
                Map.of(PARTITION, 101L));
        String horizon = cursor.horizon();

        // a later start of the same task (Mesos RUNNING after STAGING) and then the earlier one (YARN ALLOCATED)
        int later = store.commit("fact-store-early-group", batch(101, start(early, "early", 9_000)), List.of(),
                Map.of(PARTITION, 102L));
        assertThat(later).as("a later start changes nothing").isZero();
        int earlier = store.commit("fact-store-early-group", batch(102, start(early, "early", 1_000),
                start(early, "early", 3_000)), List.of(), Map.of(PARTITION, 104L));
        assertThat(earlier).as("the earliest of the batch replaces the stored start").isEqualTo(1);

        assertThat(cursor.taskStart(early, "early").at()).isEqualTo(1_000);
        List<LedgerFact> read = cursor.between(horizon, cursor.horizon()).get(early);
        assertThat(read).as("the live ledgers read the replaced row as a fresh (late) fact").hasSize(1);
        assertThat(read.get(0).at()).isEqualTo(1_000);
    }

    @Test
    void aStartMovedIntoAnEarlierMonthIsStillOneFactAndAFinishStaysTheFirst() throws SQLException {
        String cluster = "fact-store-months";
        long february = Instant.parse("2026-02-01T00:00:05Z").toEpochMilli();
        long january = Instant.parse("2026-01-31T23:59:59Z").toEpochMilli();
        store.commit("fact-store-months-group", batch(200, start(cluster, "m", february)), List.of(),
                Map.of(PARTITION, 201L));
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            FactPartitions.ensure(c, Instant.parse("2026-01-15T00:00:00Z"), 1);
            c.commit();
        }
        assertThat(partitionOf(cluster, "task:m:start")).as("moved out of the default partition")
                .containsExactly("ledger_fact_2026_02");
        String horizon = cursor.horizon();

        int earlier = store.commit("fact-store-months-group", batch(201, start(cluster, "m", january)), List.of(),
                Map.of(PARTITION, 202L));
        assertThat(earlier).as("the earlier start replaces the stored one across the month boundary").isEqualTo(1);
        assertThat(partitionOf(cluster, "task:m:start")).as("one row, in January").containsExactly(
                "ledger_fact_2026_01");
        assertThat(cursor.taskStart(cluster, "m").at()).isEqualTo(january);
        assertThat(cursor.between(horizon, cursor.horizon()).get(cluster)).as("read again as a late fact")
                .extracting(LedgerFact::at).containsExactly(january);

        int later = store.commit("fact-store-months-group", batch(202, start(cluster, "m", february + 86_400_000L)),
                List.of(), Map.of(PARTITION, 203L));
        assertThat(later).as("a later start in another month changes nothing").isZero();
        LedgerFact firstFinish = new LedgerFact.Event(new LedgerEvent.TaskFinished(cluster, "m", february + 1_000),
                "task:m:finish");
        LedgerFact otherFinish = new LedgerFact.Event(new LedgerEvent.TaskFinished(cluster, "m", january + 500),
                "task:m:finish");
        store.commit("fact-store-months-group", batch(203, firstFinish), List.of(), Map.of(PARTITION, 204L));
        assertThat(store.commit("fact-store-months-group", batch(204, otherFinish), List.of(),
                Map.of(PARTITION, 205L))).as("a finish with the same key in another month: the first stays").isZero();
        assertThat(partitionOf(cluster, "task:m:finish")).containsExactly("ledger_fact_2026_02");
        assertThat(cursor.facts(cluster)).extracting(LedgerFact::at).containsExactly(january, february + 1_000);
    }

    @Test
    void aLargeBatchWithAFewStoredKeysWritesEachNewFactOnceAndNothingElse() throws SQLException {
        String cluster = "fact-store-mixed";
        List<LedgerFact> first = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            first.add(start(cluster, "m" + i, 5_000));
        }
        store.commit("fact-store-mixed-group", batch(300, first.toArray(LedgerFact[]::new)), List.of(),
                Map.of(PARTITION, 1_300L));

        // 1,000 new starts, a redelivered start, a later start and an earlier one of stored tasks, and the finish of a
        // stored task: the common late or repeated event in a large batch
        List<LedgerFact> mixed = new ArrayList<>();
        for (int i = 1_000; i < 2_000; i++) {
            mixed.add(start(cluster, "m" + i, 5_000));
            if (i == 1_500) {
                mixed.add(start(cluster, "m500", 5_000));
                mixed.add(start(cluster, "m8", 9_000));
                mixed.add(start(cluster, "m7", 4_000));
                mixed.add(finish(cluster, "m9"));
            }
        }
        long written;
        long elsewhere;
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            String facts = "relname LIKE 'ledger_fact%' AND relname <> 'ledger_fact_key'";
            String others = "relname NOT LIKE 'ledger_fact%'";
            long factsBefore = rowsInserted(c, facts);
            long othersBefore = rowsInserted(c, others);
            int inserted = FactWriter.insert(c, batch(1_300, mixed.toArray(LedgerFact[]::new)));
            assertThat(inserted).as("the 1,000 new starts, m9's finish and m7's earlier start").isEqualTo(1_002);
            written = rowsInserted(c, facts) - factsBefore;
            elsewhere = rowsInserted(c, others) - othersBefore;
            c.commit();
        }
        assertThat(written).as("each new fact copied into ledger_fact once, the stored ones not at all")
                .isEqualTo(1_002);
        assertThat(elsewhere).as("no copy of the batch through another table").isZero();

        long[] counts = new long[3];
        query("SELECT count(*), count(DISTINCT dedupe_key), (SELECT count(*) FROM ledger_fact_key WHERE cluster_id = '"
                + cluster + "') FROM ledger_fact WHERE cluster_id = '" + cluster + "'", rs -> {
                    counts[0] = rs.getLong(1);
                    counts[1] = rs.getLong(2);
                    counts[2] = rs.getLong(3);
                });
        assertThat(counts).as("2,001 facts (2,000 starts and a finish), one row each, one key each")
                .containsExactly(2_001, 2_001, 2_001);
        assertThat(cursor.taskStart(cluster, "m7").at()).as("the earlier start replaced the stored one")
                .isEqualTo(4_000);
        assertThat(cursor.taskStart(cluster, "m8").at()).as("the later start changed nothing").isEqualTo(5_000);
        assertThat(cursor.taskStart(cluster, "m500").at()).isEqualTo(5_000);
    }

    /**
     * Rows inserted or updated in the tables {@code where} selects by this session, as far as not yet reported to the
     * statistics (which happens between transactions only, so the difference of two readings in one transaction is
     * that transaction's).
     */
    private static long rowsInserted(Connection c, String where) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT coalesce(sum(n_tup_ins + n_tup_upd), 0) FROM pg_stat_xact_all_tables WHERE " + where);
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The partitions holding the facts of {@code cluster} with {@code key}. */
    private List<String> partitionOf(String cluster, String key) throws SQLException {
        List<String> out = new ArrayList<>();
        query("SELECT tableoid::regclass::text FROM ledger_fact WHERE cluster_id = '" + cluster + "' AND dedupe_key = '"
                + key + "'", rs -> out.add(rs.getString(1)));
        return out;
    }

    private static List<SourcedFact> batch(long firstOffset, LedgerFact... facts) {
        List<SourcedFact> out = new ArrayList<>();
        for (LedgerFact fact : facts) {
            out.add(new SourcedFact(fact, "e" + (firstOffset + out.size()), PARTITION.topic(), 0,
                    firstOffset + out.size()));
        }
        return out;
    }

    private List<String> keys() throws SQLException {
        List<String> out = new ArrayList<>();
        query("SELECT dedupe_key FROM ledger_fact WHERE cluster_id = '" + CLUSTER + "'",
                rs -> out.add(rs.getString(1)));
        return out;
    }

    private long sourceOffset(String key) throws SQLException {
        long[] out = {-1};
        query("SELECT source_offset FROM ledger_fact WHERE cluster_id = '" + CLUSTER + "' AND dedupe_key = '" + key
                + "'", rs -> out[0] = rs.getLong(1));
        return out[0];
    }

    private int transactionsOf(long fromOffset, long toOffset) throws SQLException {
        int[] out = {0};
        query("SELECT count(DISTINCT tx) FROM ledger_fact WHERE cluster_id = '" + CLUSTER + "' AND source_offset "
                + "BETWEEN " + fromOffset + " AND " + toOffset, rs -> out[0] = rs.getInt(1));
        return out[0];
    }

    private interface Row {
        void accept(ResultSet rs) throws SQLException;
    }

    private void query(String sql, Row row) throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(sql);
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                row.accept(rs);
            }
        }
    }
}
