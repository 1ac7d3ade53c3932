package io.fairledger.facts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import io.fairledger.testsupport.PostgresDependency;
import io.fairledger.testsupport.RealDependency;

/**
 * {@link TransactionIdFloor} on a real PostgreSQL with fairledger's schema, as after a logical restore: a stored
 * position ahead of the database's transaction ids is overtaken by spending empty transactions; one too far ahead
 * stops the start with the {@code pg_resetwal} command to run, spending nothing; positions behind change nothing.
 */
class TransactionIdFloorTest {

    private static RealDependency.Running postgres;
    private static PGSimpleDataSource dataSource;

    @BeforeAll
    static void start() {
        postgres = PostgresDependency.start();
        Map<String, String> config = postgres.config();
        dataSource = new PGSimpleDataSource();
        dataSource.setURL(config.get("quarkus.datasource.jdbc.url"));
        dataSource.setUser(config.get("quarkus.datasource.username"));
        dataSource.setPassword(config.getOrDefault("quarkus.datasource.password", ""));
        Flyway.configure().dataSource(dataSource).locations("classpath:db/migration").load().migrate();
    }

    @AfterAll
    static void stop() {
        if (postgres != null) {
            postgres.close();
        }
    }

    @BeforeEach
    void noPositions() throws SQLException {
        execute("DELETE FROM closing_watermark");
    }

    @Test
    void aPositionAheadOfTheDatabaseIsOvertakenBeforeTheStartGoesOn() throws SQLException {
        long stored = nextTransactionId() + 250_000;
        storePosition(stored);

        floor().raise(null);

        assertThat(nextTransactionId()).as("the next transaction id").isGreaterThan(stored);
    }

    @Test
    void aPositionTooFarAheadStopsTheStartWithTheCommandToRunAndSpendsNothing() throws SQLException {
        long next = nextTransactionId();
        long stored = next + TransactionIdFloor.MAX_GAP + 1_000;
        storePosition(stored);

        assertThatThrownBy(() -> floor().raise(null)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("pg_resetwal -x " + ((stored + 1) & 0xFFFFFFFFL) + " -e " + ((stored + 1) >>> 32))
                .hasMessageContaining("docs/operations.md");
        assertThat(nextTransactionId()).as("transactions spent").isLessThan(next + 100);
    }

    @Test
    void positionsBehindTheDatabaseChangeNothing() throws SQLException {
        long next = nextTransactionId();
        storePosition(next - 1);

        floor().raise(null);

        assertThat(nextTransactionId()).as("transactions spent").isLessThan(next + 100);
    }

    private static TransactionIdFloor floor() {
        TransactionIdFloor floor = new TransactionIdFloor();
        floor.dataSource = dataSource;
        return floor;
    }

    /** A closing position, one of the positions the floor reads, as a restored database may hold it. */
    private static void storePosition(long position) throws SQLException {
        execute("INSERT INTO closing_watermark (cluster_id, fact_position, idle_timeout_ms, watermark_ms, sources) "
                + "VALUES ('restored', " + position + ", 0, 0, '{}')");
    }

    private static long nextTransactionId() throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT pg_current_xact_id()::text::bigint")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void execute(String sql) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }
}
