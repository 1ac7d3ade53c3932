package io.fairledger.facts;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;
import io.fairledger.testsupport.PostgresDependency;
import io.fairledger.testsupport.RealDependency;

/**
 * The duplicate rule in SQL ({@link Dedupe#SQL_REPLACES}, which {@link FactWriter} runs) decides as the rule in Java
 * ({@link Dedupe#replaces}) on a real PostgreSQL, for starts whose encodings differ where orders of text disagree: case,
 * a prefix, punctuation, accents, a combining mark, and a character beyond U+FFFF (which UTF-16 order puts before
 * U+E000 to U+FFFF, code-point order after). The texts are given a linguistic collation when the server has one, so
 * that {@code COLLATE "C"} is what decides, not the database's default.
 */
class DedupeSqlTest {

    /** Application names the starts differ by, pairwise ordered differently by code points and by linguistic rules. */
    private static final List<String> APPS = List.of("a", "A", "b", "B", "ab", "a-b", "a b", "z", "\u00e4", "\u00e9",
            "e\u0301", "\uFFFD", "\uE000", "\uD835\uDD38", "\u00c5", "aa", "");

    private static RealDependency.Running postgres;
    private static Connection connection;
    private static String collation;

    @BeforeAll
    static void start() throws SQLException {
        postgres = PostgresDependency.start();
        Map<String, String> config = postgres.config();
        connection = DriverManager.getConnection(config.get("quarkus.datasource.jdbc.url"),
                config.get("quarkus.datasource.username"), config.get("quarkus.datasource.password"));
        try (PreparedStatement ps = connection.prepareStatement("SELECT collname FROM pg_collation "
                + "WHERE collname IN ('und-x-icu', 'en-x-icu', 'en_US.utf8') ORDER BY collname DESC LIMIT 1");
                ResultSet rs = ps.executeQuery()) {
            collation = rs.next() ? "COLLATE \"" + rs.getString(1) + "\"" : "";
        }
    }

    @AfterAll
    static void stop() throws SQLException {
        if (connection != null) {
            connection.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    @Test
    void theSqlRuleReplacesExactlyTheStartsTheJavaRuleReplaces() throws SQLException {
        List<LedgerFact> starts = new ArrayList<>();
        for (String app : APPS) {
            starts.add(start(app, 1_000));
        }
        starts.add(start("z", 999));
        starts.add(start("", 1_001));
        String sql = "SELECT " + Dedupe.SQL_REPLACES + " FROM (VALUES (?::bigint, ?::text " + collation
                + ")) AS s (event_time_ms, fact), (VALUES (?::bigint, ?::text " + collation
                + ")) AS f (event_time_ms, fact)";
        List<String> disagreements = new ArrayList<>();
        int replacing = 0;
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            for (LedgerFact candidate : starts) {
                for (LedgerFact kept : starts) {
                    ps.setLong(1, candidate.at());
                    ps.setString(2, FactCodec.encode(candidate));
                    ps.setLong(3, kept.at());
                    ps.setString(4, FactCodec.encode(kept));
                    boolean inSql;
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        inSql = rs.getBoolean(1);
                    }
                    boolean inJava = Dedupe.replaces(candidate, kept);
                    replacing += inJava ? 1 : 0;
                    if (inSql != inJava) {
                        disagreements.add(FactCodec.encode(candidate) + " replaces " + FactCodec.encode(kept)
                                + ": SQL " + inSql + ", Java " + inJava);
                    }
                }
            }
        }
        assertThat(disagreements).as("texts given %s", collation.isEmpty() ? "the database's collation" : collation)
                .isEmpty();
        // every pair of distinct starts is ordered one way
        assertThat(replacing).isEqualTo(starts.size() * (starts.size() - 1) / 2);
    }

    private static LedgerFact start(String app, long at) {
        return new LedgerFact.Event(new LedgerEvent.TaskStarted("c", "t", TenantPath.parse("root.a"), app,
                new ResourceVector(1000, 1024, 0), at), "task:t:start");
    }
}
