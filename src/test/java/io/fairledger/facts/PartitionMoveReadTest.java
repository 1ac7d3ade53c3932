package io.fairledger.facts;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.OwnDatabase;
import io.fairledger.testsupport.PostgresResource;

/**
 * A month's partition created while its facts are read (a database of its own on the tests' PostgreSQL): the facts
 * move out of the default partition into the new one, and a reader querying the month all along reads every one of
 * them at every query, never none (what a period close read once, and closed a statement of zeros from).
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class PartitionMoveReadTest {

    private static final String DATABASE = "fairledger_partition_move_test";
    private static final Instant MAY = Instant.parse("2001-05-01T00:00:00Z");
    private static final int FACTS = 200_000;

    @Test
    void aReaderOfTheMonthSeesEveryFactWhileItsPartitionIsCreated() throws Exception {
        OwnDatabase own = OwnDatabase.create(DATABASE);
        own.flyway("latest").migrate();
        try (Connection c = own.connect(); Statement st = c.createStatement()) {
            st.execute("INSERT INTO ledger_fact (cluster_id, dedupe_key, event_id, event_time_ms, kind, fact, "
                    + "source_topic, source_partition, source_offset) SELECT 'm', 'task:t' || g || ':start', 'e' || g, "
                    + (MAY.toEpochMilli() + 1000) + " + g, 'TaskStarted', '{}', 't', 0, g FROM generate_series(1, "
                    + FACTS + ") g");
        }
        assertThat(partitionsHolding(own)).as("no partition of May 2001 yet").containsExactly(FactPartitions.DEFAULT);

        AtomicBoolean moved = new AtomicBoolean();
        List<Long> counts = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> reads = CompletableFuture.runAsync(() -> readUntil(own, moved, counts));
        // the move starts once the reader has read the month once
        Awaitility.await().atMost(30, TimeUnit.SECONDS).until(() -> !counts.isEmpty() || reads.isDone());
        try (Connection c = own.connect()) {
            c.setAutoCommit(false);
            assertThat(FactPartitions.ensure(c, MAY, 0)).extracting(FactPartitions.Partition::name)
                    .containsExactly("ledger_fact_2001_05");
            c.commit();
        } finally {
            moved.set(true);
        }
        reads.get(60, TimeUnit.SECONDS);

        assertThat(partitionsHolding(own)).containsExactly("ledger_fact_2001_05");
        assertThat(counts).as("reads of the month before, during and after the move").hasSizeGreaterThan(20)
                .allMatch(n -> n == FACTS);
    }

    /** Counts the month's facts into {@code counts}, query after query, until {@code moved} and twenty queries more. */
    private void readUntil(OwnDatabase own, AtomicBoolean moved, List<Long> counts) {
        try (Connection c = own.connect();
                PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM ledger_fact WHERE cluster_id = 'm' "
                        + "AND event_time_ms >= ? AND event_time_ms < ?")) {
            ps.setLong(1, MAY.toEpochMilli());
            ps.setLong(2, MAY.toEpochMilli() + 86_400_000L);
            int after = 0;
            while (after < 20) {
                if (moved.get()) {
                    after++;
                }
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    counts.add(rs.getLong(1));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private List<String> partitionsHolding(OwnDatabase own) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = own.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT DISTINCT tableoid::regclass::text FROM ledger_fact")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
