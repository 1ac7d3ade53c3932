package io.fairledger.tenancy;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import io.fairledger.errors.Invalid;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.OwnDatabase;
import io.fairledger.testsupport.PostgresResource;

/**
 * The {@code earlier} entries of ledger settings in rows of their own ({@link SettingsRows}, migration V68): a change
 * writes the entries it changes and drops those it cuts, the settings kept under the version it gives equal those
 * composed afresh from the rows, and the version moves when an entry alone changed; V68 moves the entries of a
 * document stored before it into rows.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class SettingsRowsTest {

    private static final String CLUSTERS = "/api/v1/admin/clusters";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    TenancyService tenancy;

    @Inject
    DataSource dataSource;

    @Test
    void aChangeWritesTheEntriesItChangesAndWhatIsKeptIsWhatIsStored() throws Exception {
        String cluster = "settings-rows";
        registerWithSettings(cluster, "[{\"path\":\"root.a\",\"weight\":1},{\"path\":\"root.b\",\"weight\":2}]");
        LedgerSettings none = kept(cluster);
        assertThat(none.earlier()).isNull();

        SettingsSegment first = entry(0.5, "2026-01-02T00:00:00Z", "root.a", 7);
        SettingsSegment second = entry(0.25, "2026-01-03T00:00:00Z", "root.b", 3);
        SettingsSegment third = entry(null, "2026-01-04T00:00:00Z", "root.a", 0);
        String v1 = store(cluster, none, none.withEarlier(List.of(first, second)));
        assertThat(rows(cluster)).hasSize(2);
        LedgerSettings two = assertKeptAsStored(cluster);
        assertThat(two.earlier()).containsExactly(first, second);

        // the first entry shared, the second written again with another rate, a third added
        SettingsSegment secondAgain = entry(0.125, "2026-01-03T00:00:00Z", "root.b", 3);
        String before = rows(cluster).get(0);
        String v2 = store(cluster, two, two.withEarlier(List.of(first, secondAgain, third)));
        assertThat(v2).isNotEqualTo(v1);
        assertThat(rows(cluster)).hasSize(3).first().isEqualTo(before);
        assertThat(assertKeptAsStored(cluster).earlier()).containsExactly(first, secondAgain, third);

        // an entry alone changed (the document says the same): the version moves all the same
        LedgerSettings three = kept(cluster);
        String v3 = store(cluster, three, three.withEarlier(List.of(first, secondAgain, second)));
        assertThat(v3).isNotEqualTo(v2);
        assertKeptAsStored(cluster);

        // the same again: nothing written, the version stays
        LedgerSettings same = kept(cluster);
        assertThat(store(cluster, same, same)).isEqualTo(v3);

        // entries cut: their rows dropped; then none at all
        LedgerSettings cut = kept(cluster);
        store(cluster, cut, cut.withEarlier(List.of(first)));
        assertThat(rows(cluster)).hasSize(1);
        assertThat(assertKeptAsStored(cluster).earlier()).containsExactly(first);
        LedgerSettings one = kept(cluster);
        store(cluster, one, one.withEarlier(null));
        assertThat(rows(cluster)).isEmpty();
        assertThat(assertKeptAsStored(cluster).earlier()).isNull();

        // the API's document still shows the entries, as one list
        LedgerSettings last = kept(cluster);
        store(cluster, last, last.withEarlier(List.of(first, second)));
        JsonNode served = JSON.readTree(given().get(CLUSTERS + "/" + cluster + "/ledger-settings").then()
                .statusCode(200).extract().asString());
        assertThat(served.get("earlier")).hasSize(2);
        assertThat(served.get("earlier").get(1).get("until").asText()).isEqualTo("2026-01-03T00:00:00Z");
    }

    @Test
    void entriesADocumentWrittenByHandHoldsAreStoredInRowsAtTheNextChange() throws Exception {
        String cluster = "settings-rows-by-hand";
        registerWithSettings(cluster, "[{\"path\":\"root.a\",\"weight\":1}]");
        try (Connection c = dataSource.getConnection();
                PreparedStatement update = c.prepareStatement("UPDATE cluster SET ledger_settings = jsonb_set("
                        + "ledger_settings, '{earlier}', "
                        + "'[{\"discountRate\":0.5,\"until\":\"2026-01-02T00:00:00Z\"}]') WHERE id = ?")) {
            update.setString(1, cluster);
            update.executeUpdate();
        }
        LedgerSettings read = kept(cluster);
        SettingsSegment byHand = read.earlier().get(0);
        assertThat(byHand.discountRate()).isEqualTo(0.5);
        SettingsSegment next = entry(null, "2026-01-03T00:00:00Z", "root.a", 2);
        store(cluster, read, read.withEarlier(List.of(byHand, next)));
        assertThat(rows(cluster)).hasSize(2);
        assertThat(assertKeptAsStored(cluster).earlier()).containsExactly(byHand, next);
    }

    @Test
    void entriesReadFromTheDatabaseAreCheckedAndThoseThisServerStoredAreNot() {
        String cluster = "settings-rows-range";
        registerWithSettings(cluster, "[{\"path\":\"root.a\",\"weight\":1}]");
        LedgerSettings none = kept(cluster);
        // a discount rate out of [0, 1], as only a hand (or an older version) could have stored it
        store(cluster, none, none.withEarlier(List.of(entry(5.0, "2026-01-02T00:00:00Z", "root.a", 7))));
        assertThat(tenancy.problemsInForce(cluster, kept(cluster))).as("kept as this server stored them").isEmpty();
        LedgerSettings read = QuarkusTransaction.requiringNew().call(() -> tenancy.readLedgerSettings(cluster));
        assertThat(tenancy.problemsInForce(cluster, read)).extracting(Invalid.Field::field)
                .containsExactly("earlier[0].discountRate");
        assertThat(tenancy.problemsInForce(cluster, read.withDiscountRate(7))).extracting(Invalid.Field::field)
                .contains("discountRate", "earlier[0].discountRate");
    }

    @Test
    void v68MovesTheEntriesOfADocumentStoredBeforeItIntoRows() throws SQLException {
        OwnDatabase own = OwnDatabase.create("fairledger_v68_test");
        own.flyway("67").migrate();
        try (Connection c = own.connect(); Statement st = c.createStatement()) {
            st.execute("INSERT INTO cluster (id, name, resource_manager, ledger_settings) VALUES "
                    + "('with', 'with', 'YARN', '{\"registeredAt\":\"2026-01-01T00:00:00Z\",\"earlier\":["
                    + "{\"discountRate\":0.5,\"until\":\"2026-01-02T00:00:00Z\"},"
                    + "{\"tenants\":[{\"path\":\"root.a\",\"weight\":2}],\"until\":\"2026-01-03T00:00:00Z\"}]}'), "
                    + "('without', 'without', 'YARN', '{\"registeredAt\":\"2026-01-01T00:00:00Z\"}'), "
                    + "('none', 'none', 'YARN', NULL)");
        }
        own.flyway("latest").migrate();
        try (Connection c = own.connect(); Statement st = c.createStatement()) {
            List<String> rows = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT cluster_id, position, entry::text FROM ledger_settings_entry "
                    + "ORDER BY cluster_id, position")) {
                while (rs.next()) {
                    rows.add(rs.getString(1) + " " + rs.getInt(2) + " " + rs.getString(3));
                }
            }
            assertThat(rows).containsExactly(
                    "with 0 {\"until\": \"2026-01-02T00:00:00Z\", \"discountRate\": 0.5}",
                    "with 1 {\"until\": \"2026-01-03T00:00:00Z\", "
                            + "\"tenants\": [{\"path\": \"root.a\", \"weight\": 2}]}");
            List<String> documents = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT id, ledger_settings::text FROM cluster ORDER BY id")) {
                while (rs.next()) {
                    documents.add(rs.getString(1) + " " + rs.getString(2));
                }
            }
            assertThat(documents).containsExactly("none null",
                    "with {\"registeredAt\": \"2026-01-01T00:00:00Z\"}",
                    "without {\"registeredAt\": \"2026-01-01T00:00:00Z\"}");
        }
    }

    /**
     * Registers {@code cluster} (a YARN one), checks that it answers 409 "no ledger settings yet" before it has any,
     * then puts settings listing {@code tenants} (a JSON array).
     */
    private static void registerWithSettings(String cluster, String tenants) {
        given().contentType(ContentType.JSON).body("{\"id\":\"" + cluster + "\",\"resourceManager\":\"YARN\"}")
                .post(CLUSTERS).then().statusCode(201);
        given().get(CLUSTERS + "/" + cluster + "/ledger-settings").then().statusCode(409)
                .body("detail", containsString("no ledger settings yet"));
        given().contentType(ContentType.JSON).body("""
                {"registeredAt":"2026-01-01T00:00:00Z","capacity":{"vcores":8,"memoryMb":8192,"gpus":0},
                 "tenants":%s}""".formatted(tenants))
                .put(CLUSTERS + "/" + cluster + "/ledger-settings").then().statusCode(200);
    }

    private static SettingsSegment entry(Double rate, String until, String path, double weight) {
        return new SettingsSegment(rate, null, null, List.of(new LedgerSettings.Tenant(path, weight, null, "")),
                List.of(), Instant.parse(until));
    }

    private String store(String cluster, LedgerSettings before, LedgerSettings settings) {
        return QuarkusTransaction.requiringNew().call(() -> {
            tenancy.lock(cluster);
            return tenancy.storeLedgerSettings(cluster, before, settings);
        });
    }

    private LedgerSettings kept(String cluster) {
        return QuarkusTransaction.requiringNew().call(() -> tenancy.ledgerSettings(cluster));
    }

    /** What the server kept under the cluster's version equals what it composes afresh from the database. */
    private LedgerSettings assertKeptAsStored(String cluster) {
        LedgerSettings kept = kept(cluster);
        LedgerSettings stored = QuarkusTransaction.requiringNew().call(() -> tenancy.readLedgerSettings(cluster));
        assertThat(kept).isNotSameAs(stored).isEqualTo(stored);
        return kept;
    }

    private List<String> rows(String cluster) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c
                        .prepareStatement("SELECT xmin::text || ' ' || entry::text FROM ledger_settings_entry "
                                + "WHERE cluster_id = ? ORDER BY position")) {
            ps.setString(1, cluster);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }
}
