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

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.OwnDatabase;
import io.fairledger.testsupport.PostgresResource;

/**
 * The V60 migration on a database holding facts (a database of its own on the tests' PostgreSQL, migrated to V41,
 * given facts of several months, then migrated on): every row is kept, with its transaction id, in the partition of its
 * month (1970 to 2199) or in the default partition (1969, 2300), each with its key in {@code ledger_fact_key}.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class PartitioningMigrationTest {

    private static final String DATABASE = "fairledger_v60_test";

    @Test
    void factsOfEveryMonthKeepTheirRowsAndTransactionsInTheirPartitions() throws SQLException {
        OwnDatabase own = OwnDatabase.create(DATABASE);
        own.flyway("41").migrate();
        long[] times = {-86_400_000L, Instant.parse("2001-03-31T23:59:59.999Z").toEpochMilli(),
                Instant.parse("2001-04-01T00:00:00Z").toEpochMilli(),
                Instant.parse("2150-06-15T12:00:00Z").toEpochMilli(),
                Instant.parse("2300-01-01T00:00:00Z").toEpochMilli()};
        List<String> transactions = new ArrayList<>();
        try (Connection c = own.connect()) {
            try (Statement st = c.createStatement()) {
                st.execute("INSERT INTO cluster (id, name, resource_manager) VALUES ('m', 'm', 'YARN')");
            }
            for (int i = 0; i < times.length; i++) {
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO ledger_fact (cluster_id, dedupe_key, "
                        + "event_id, event_time_ms, kind, fact, source_topic, source_partition, source_offset) "
                        + "VALUES ('m', ?, ?, ?, 'TaskStarted', '{}', 't', 0, ?) RETURNING tx::text")) {
                    ps.setString(1, "task:t" + i + ":start");
                    ps.setString(2, "e" + i);
                    ps.setLong(3, times[i]);
                    ps.setLong(4, i);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        transactions.add(rs.getString(1));
                    }
                }
            }
        }

        own.flyway("latest").migrate();

        try (Connection c = own.connect()) {
            List<String> rows = new ArrayList<>();
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT f.tableoid::regclass::text, f.tx::text, k.event_time_ms "
                            + "FROM ledger_fact f JOIN ledger_fact_key k USING (cluster_id, dedupe_key) "
                            + "ORDER BY f.source_offset")) {
                while (rs.next()) {
                    rows.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getLong(3));
                }
            }
            assertThat(rows).containsExactly(
                    FactPartitions.DEFAULT + " " + transactions.get(0) + " " + times[0],
                    "ledger_fact_2001_03 " + transactions.get(1) + " " + times[1],
                    "ledger_fact_2001_04 " + transactions.get(2) + " " + times[2],
                    "ledger_fact_2150_06 " + transactions.get(3) + " " + times[3],
                    FactPartitions.DEFAULT + " " + transactions.get(4) + " " + times[4]);
        }
    }
}
