package io.fairledger.facts;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** {@link FactCursor} on the real PostgreSQL: positions are transaction ids, ordered as numbers. */
@QuarkusTest
class FactCursorTest {

    private static final String CLUSTER = "fact-cursor-order";

    @Inject
    FactCursor cursor;

    @Inject
    DataSource dataSource;

    @Test
    void transactionsComeInPositionOrderAcrossADigitBoundary() throws Exception {
        // stored by transactions 11, 9 and 10 (twice; below any horizon): a text order would give 10, 11, 9
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("INSERT INTO ledger_fact (cluster_id, dedupe_key, event_id, "
                        + "event_time_ms, kind, fact, source_topic, source_partition, source_offset, tx) "
                        + "VALUES (?, ?, ?, ?, 'TaskStarted', ?, 't', ?, ?, ?::xid8)")) {
            long[] txs = {11, 9, 10, 10};
            for (int i = 0; i < txs.length; i++) {
                ps.setString(1, CLUSTER);
                ps.setString(2, "task:t" + i + ":start");
                ps.setString(3, "e" + i);
                ps.setLong(4, 1_000L * (3 - i));
                ps.setString(5, "{\"task\":\"t" + i + "\",\"tenant\":\"root.a\",\"application\":\"app\","
                        + "\"millicores\":1000,\"memoryMb\":1024,\"gpus\":0}");
                // the last fact from a second partition of the topic
                ps.setInt(6, i == 3 ? 1 : 0);
                ps.setLong(7, i);
                ps.setString(8, Long.toString(txs[i]));
                ps.addBatch();
            }
            ps.executeBatch();
        }
        List<StoredTransaction> stored = new ArrayList<>();
        cursor.forEachTransaction(CLUSTER, FactCursor.START, cursor.horizon(), stored::add);
        assertThat(stored).extracting(StoredTransaction::position).containsExactly(9L, 10L, 11L);
        // per source (topic and partition), the span of its event times in the transaction
        assertThat(stored).extracting(StoredTransaction::spans).containsExactly(
                List.of(new StoredTransaction.Span("t-0", 2_000, 2_000)),
                List.of(new StoredTransaction.Span("t-0", 1_000, 1_000), new StoredTransaction.Span("t-1", 0, 0)),
                List.of(new StoredTransaction.Span("t-0", 3_000, 3_000)));
        assertThat(stored.get(1).earliest()).isZero();
        assertThat(stored.get(1).latest()).isEqualTo(1_000);
        // when each stored its facts: ingested_at, here one transaction's start for all
        assertThat(stored).extracting(StoredTransaction::arrivedAt).containsOnly(stored.get(0).arrivedAt());
        // from a position on: the closer reads only what was stored after its last closing position
        List<StoredTransaction> since = new ArrayList<>();
        cursor.forEachTransaction(CLUSTER, "10", cursor.horizon(), since::add);
        assertThat(since).extracting(StoredTransaction::position).containsExactly(10L, 11L);
    }
}
