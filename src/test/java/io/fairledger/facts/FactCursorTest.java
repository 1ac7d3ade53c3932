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
                        + "VALUES (?, ?, ?, ?, 'TaskStarted', ?, 't', 0, ?, ?::xid8)")) {
            long[] txs = {11, 9, 10, 10};
            for (int i = 0; i < txs.length; i++) {
                ps.setString(1, CLUSTER);
                ps.setString(2, "task:t" + i + ":start");
                ps.setString(3, "e" + i);
                ps.setLong(4, 1_000L * (3 - i));
                ps.setString(5, "{\"task\":\"t" + i + "\",\"tenant\":\"root.a\",\"application\":\"app\","
                        + "\"millicores\":1000,\"memoryMb\":1024,\"gpus\":0}");
                ps.setLong(6, i);
                ps.setString(7, Long.toString(txs[i]));
                ps.addBatch();
            }
            ps.executeBatch();
        }
        List<StoredTransaction> stored = new ArrayList<>();
        cursor.forEachTransaction(CLUSTER, FactCursor.START, cursor.horizon(), stored::add);
        assertThat(stored).containsExactly(new StoredTransaction(9, 2_000, 2_000),
                new StoredTransaction(10, 0, 1_000), new StoredTransaction(11, 3_000, 3_000));
        // from a position on: the closer reads only what was stored after its last closing position
        List<StoredTransaction> since = new ArrayList<>();
        cursor.forEachTransaction(CLUSTER, "10", cursor.horizon(), since::add);
        assertThat(since).containsExactly(new StoredTransaction(10, 0, 1_000), new StoredTransaction(11, 3_000, 3_000));
        // the watermark at a position: the latest event time stored before the horizon just after it
        assertThat(cursor.latestStored(CLUSTER, "9")).isNull();
        assertThat(cursor.latestStored(CLUSTER, "10")).isEqualTo(2_000L);
        assertThat(cursor.latestStored(CLUSTER, "11")).isEqualTo(2_000L);
        assertThat(cursor.latestStored(CLUSTER, "12")).isEqualTo(3_000L);
    }
}
