package io.fairledger.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import com.fasterxml.jackson.databind.JsonNode;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import io.fairledger.testsupport.KafkaDependency;
import io.fairledger.testsupport.RealDependency;

/**
 * Today's server on a database an earlier version wrote (src/test/resources/upgrade, its README says how it was made):
 * the database is restored into a fresh PostgreSQL, the Kafka topic given the same events at the same offsets, and
 * today's server started on them migrates the schema, serves the old version's closed statements byte for byte, builds
 * its live ledger from what the old version stored, and goes on ingesting and closing periods, which equal
 * {@code fairledger account}'s.
 */
class UpgradeIT {

    private static final String CLUSTER = "it-upgrade";
    /** The fixture's events: the scenario's up to a240 and b240 (the latest finished 04:50), closing periods 0 to 3. */
    private static final int FIXTURE_EVENTS = 26;
    private static final String FIXTURE_UNTIL = "2026-11-20T04:00:00Z";
    private static final String UNTIL = "2026-11-20T08:00:00Z";
    private static final Path FIXTURE = Path.of("src/test/resources/upgrade");

    private DumpablePostgres postgres;
    private RealDependency.Running kafka;
    private LedgerScenario scenario;
    private List<String> events;

    @BeforeEach
    void start() throws Exception {
        postgres = DumpablePostgres.start();
        kafka = KafkaDependency.start();
        scenario = new LedgerScenario(CLUSTER, postgres.config(), kafka.config().get("kafka.bootstrap.servers"));
        scenario.createTopic();
        events = scenario.events(8);
    }

    @AfterEach
    void stop() {
        if (kafka != null) {
            kafka.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    @Test
    void todaysServerServesTheOldStatementsAndGoesOnClosing() throws Exception {
        Path sql = Files.createTempFile("fairledger-it-upgrade", ".sql");
        try (InputStream in = new GZIPInputStream(Files.newInputStream(FIXTURE.resolve("database.sql.gz")))) {
            Files.copy(in, sql, StandardCopyOption.REPLACE_EXISTING);
        }
        postgres.restorePlain(sql);
        // the topic as it was: the fixture's events at the offsets its database records as read
        scenario.publish(events.subList(0, FIXTURE_EVENTS));
        JsonNode offline = LedgerScenario.account(events, UNTIL);

        try (ServerProcess server = ServerProcess.start(scenario.serverEnv(), "serve")) {
            assertThat(scenario.statements(server, FIXTURE_UNTIL)).as("the old version's closed statements")
                    .isEqualTo(Files.readString(FIXTURE.resolve("statements.json")));

            scenario.publish(events.subList(FIXTURE_EVENTS, events.size()));
            Awaitility.await("periods 4 to 7 closed").atMost(180, TimeUnit.SECONDS).pollInterval(1, TimeUnit.SECONDS)
                    .until(() -> scenario.closedPeriods() == 8);
            JsonNode served = LedgerScenario.JSON.readTree(scenario.statements(server, UNTIL));
            assertThat(served.size()).isEqualTo(8);
            for (int period = 4; period < 8; period++) {
                assertThat(served.get(period).has("chain")).as("period %d closed by today's server, signed", period)
                        .isTrue();
            }
            ServerProcess.withoutChain(served);
            for (int period = 4; period < 8; period++) {
                assertThat(served.get(period)).as("period %d", period).isEqualTo(offline.get(period));
            }
        }
    }

    /**
     * Makes the fixture (not a test: runs only with {@code -Dfairledger.it.upgrade.record=<directory>} and
     * {@code -Dfairledger.it.upgrade.server=<the old version's quarkus-run.jar>}; the fixture's README says how): the
     * old server on a fresh database ingests the fixture's events until periods 0 to 3 are closed and a checkpoint is
     * stored; its statements and a plain {@code pg_dump} of its database are written to the directory.
     */
    @Test
    @EnabledIfSystemProperty(named = "fairledger.it.upgrade.record", matches = ".+")
    void recordFixture() throws Exception {
        Path out = Path.of(System.getProperty("fairledger.it.upgrade.record"));
        Path oldServer = Path.of(System.getProperty("fairledger.it.upgrade.server"));
        try (ServerProcess server = ServerProcess.launch(oldServer, scenario.serverEnv(), "serve")) {
            server.awaitReady();
            scenario.register(server);
            scenario.publish(events.subList(0, FIXTURE_EVENTS));
            Awaitility.await("periods 0 to 3 closed, a checkpoint stored").atMost(120, TimeUnit.SECONDS)
                    .pollInterval(1, TimeUnit.SECONDS)
                    .until(() -> scenario.closedPeriods() == 4 && scenario.checkpoints() > 0);
            Files.createDirectories(out);
            Files.writeString(out.resolve("statements.json"), scenario.statements(server, FIXTURE_UNTIL),
                    StandardCharsets.UTF_8);
            // its exit status on SIGTERM is not checked: that version answered 143
            server.terminate();
        }
        Path sql = Files.createTempFile("fairledger-it-upgrade", ".sql");
        postgres.dump(sql, "plain");
        try (OutputStream gz = new GZIPOutputStream(Files.newOutputStream(out.resolve("database.sql.gz")))) {
            Files.copy(sql, gz);
        }
    }
}
