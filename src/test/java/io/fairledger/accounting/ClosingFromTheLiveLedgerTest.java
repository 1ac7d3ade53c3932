package io.fairledger.accounting;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.fairledger.accounting.PeriodCloser.ClosedPeriod;
import io.fairledger.config.FairledgerConfig;
import io.fairledger.facts.FactCursor;
import io.fairledger.live.LiveLedgers;
import io.fairledger.live.LiveView;
import io.fairledger.observability.MetricNames;
import io.fairledger.tenancy.LedgerSettings;
import io.fairledger.testsupport.EventPublisher;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;
import io.fairledger.testsupport.YarnWorkload;

/**
 * The server's period closer takes the statements of the periods it closes, and of the closed periods late facts
 * changed, from the live ledger (whose tick stops just after the closing transaction) rather than replaying the stored
 * facts: what it stores equals what the closer stores replaying every statement from the same stored facts.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class ClosingFromTheLiveLedgerTest {

    private static final String CLUSTER = "held-yarn";
    private static final Instant START = Instant.parse("2026-11-20T00:00:00Z");
    private static final long MINUTE = 60_000L;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Inject
    FactCursor cursor;

    @Inject
    StoredLedgerStates states;

    @Inject
    SettingsInForce inForce;

    @Inject
    DataSource dataSource;

    @Inject
    ObjectMapper json;

    @Inject
    LedgerKeys keys;

    @Inject
    LiveLedgers live;

    @Inject
    MeterRegistry registry;

    @Inject
    FairledgerConfig config;

    @Test
    void theStatementsTakenFromTheLiveLedgerAreThoseAReplayCloses() throws Exception {
        String settings = YarnWorkload.settings(START, 4).replace("\"memory\"",
                "\"allowedLateness\":\"PT10M\",\"memory\"");
        given().contentType(ContentType.JSON).body("{\"id\":\"" + CLUSTER + "\",\"resourceManager\":\"YARN\"}")
                .post("/api/v1/admin/clusters").then().statusCode(201);
        given().contentType(ContentType.JSON).body(settings)
                .put("/api/v1/admin/clusters/" + CLUSTER + "/ledger-settings").then().statusCode(200);

        // about four hours of containers; one event in ten arrives up to 40 minutes late, so closed periods get late
        // facts; sent in chunks, so transactions follow each other within a tick
        List<String> lines = YarnWorkload.lines(CLUSTER, START, 8_000, 4, 11);
        Random random = new Random(5);
        List<long[]> arrival = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            long at = eventTime(lines.get(i));
            arrival.add(new long[]{random.nextInt(10) == 0 ? at + random.nextInt(40) * MINUTE : at, i});
        }
        arrival.sort(Comparator.comparingLong(a -> a[0]));
        List<String> ordered = arrival.stream().map(a -> lines.get((int) a[1])).toList();
        for (int from = 0; from < ordered.size(); from += 400) {
            EventPublisher.publishYarn(bootstrap, CLUSTER, ordered.subList(from, Math.min(ordered.size(), from + 400)));
        }
        String last = YarnWorkload.last(CLUSTER, Instant.parse("2026-11-20T07:00:00Z"));
        EventPublisher.publishYarn(bootstrap, CLUSTER, List.of(last));

        LedgerSettings inForceNow = inForce.settings(CLUSTER);
        Awaitility.await().atMost(120, TimeUnit.SECONDS).pollInterval(1, TimeUnit.SECONDS).untilAsserted(() -> {
            assertThat(live.find(CLUSTER)).map(LiveView::facts).hasValue((long) cursor.facts(CLUSTER).size());
            assertThat(table(inForceNow).closed()).as("periods closed through 06:00").hasSizeGreaterThanOrEqualTo(6);
        });

        PeriodCloserProperties.Store replayed = new PeriodCloserProperties.Store();
        new PeriodCloser(CLUSTER, replayed, new StoredFactsBelow(cursor, states, CLUSTER, cursor.horizon(),
                Optional.empty(), HeldStatements.NONE), RecordedWatermarks.inMemory(),
                config.closing().sourceIdleTimeout().toMillis()).closeDue(inForceNow);
        List<ClosedPeriod> served = table(inForceNow).closed();
        assertThat(replayed.closed()).as("the replay closes as many periods").hasSameSizeAs(served);
        for (int i = 0; i < served.size(); i++) {
            assertThat(served.get(i).position()).as("period %d closed at", i)
                    .isEqualTo(replayed.closed().get(i).position());
            assertThat(served.get(i).statement()).as("period %d", i).usingRecursiveComparison()
                    .ignoringFields("chain").isEqualTo(replayed.closed().get(i).statement());
        }
        assertThat(served.stream().flatMap(c -> c.statement().lines().stream())
                .anyMatch(l -> !l.adjustments().isEmpty())).as("late facts became adjustments").isTrue();
        assertThat(stated("held")).as("statements taken from the live ledger (%s replayed)", stated("replayed"))
                .isPositive();
    }

    private ClosedStatementTable table(LedgerSettings settings) {
        return new ClosedStatementTable(dataSource, json, CLUSTER, settings, keys);
    }

    private double stated(String from) {
        Counter counter = registry.find(ClosingService.STATED).tag(MetricNames.CLUSTER, CLUSTER).tag("from", from)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    private static long eventTime(String line) {
        int at = line.indexOf("\"eventTime\":") + "\"eventTime\":".length();
        return Long.parseLong(line.substring(at, line.indexOf(',', at)));
    }
}
