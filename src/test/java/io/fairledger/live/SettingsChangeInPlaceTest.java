package io.fairledger.live;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.fairledger.observability.MetricNames;
import io.fairledger.testsupport.EventPublisher;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;
import io.fairledger.testsupport.YarnWorkload;

/**
 * A settings change takes effect just after the latest stored fact (docs/domain.md, "Settings changes are
 * prospective"), so the live ledger takes it in place, replaying nothing, and the reads right after the PUT show it; a
 * fact stored later for an instant before the change is a late fact, counted under the settings then in force. The
 * books then still equal {@code fairledger account} given every event and the settings document the server returns.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class SettingsChangeInPlaceTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant START = Instant.parse("2026-11-22T00:00:00Z");

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Inject
    MeterRegistry registry;

    @Inject
    LiveLedgers live;

    @Test
    void aChangeAfterTheLatestFactIsTakenInPlaceAndALateFactBeforeItRebuilds() throws Exception {
        String cluster = "in-place-yarn";
        String settings = YarnWorkload.settings(START, 3).replace("\"period\":{\"length\":\"PT1H\"}",
                "\"period\":{\"length\":\"PT5M\"},\"allowedLateness\":\"PT1M\"");
        LiveViewsTest.register(cluster, settings);
        List<String> lines = YarnWorkload.lines(cluster, START, 600, 3, 17);
        List<String> ordered = new ArrayList<>(lines);
        ordered.sort(Comparator.comparingLong(SettingsChangeInPlaceTest::eventTime));
        // the first part ends with a container's end: a start's fact is at its allocation, before its event time
        int half = ordered.size() / 2;
        while (!ordered.get(half - 1).contains("\"state\":\"COMPLETE\"")) {
            half--;
        }
        List<String> before = new ArrayList<>(ordered.subList(0, half));
        // a container's end held back: its start stays, so nothing waits for it but the end itself
        int held = half / 2;
        while (!before.get(held).contains("\"state\":\"COMPLETE\"")) {
            held++;
        }
        String late = before.remove(held);
        List<String> after = new ArrayList<>(ordered.subList(half, ordered.size()));
        after.add(late);
        long latest = eventTime(before.get(before.size() - 1));
        assertThat(eventTime(late)).isLessThan(latest);

        EventPublisher.publishYarn(bootstrap, cluster, before);
        LiveViewsTest.awaitEvery(cluster, before);
        double rebuilds = count(MetricNames.LIVE_REBUILDS);
        double continued = count(MetricNames.LIVE_CONTINUED);
        String base = "/api/v1/clusters/" + cluster;
        double weightBefore = weight(cluster, "root.q0");

        given().contentType(ContentType.JSON).body("{\"weight\":9}")
                .put("/api/v1/admin/clusters/" + cluster + "/tenants/root.q0").then().statusCode(200);
        String takenAt = Instant.ofEpochMilli(latest + 1).toString();
        JsonNode grants = JSON.readTree(given().get(base + "/grants").then().statusCode(200).extract().asString());
        assertThat(grants.get("asOf").asText()).as("the change is taken at once, 1 ms after the latest fact")
                .isEqualTo(takenAt);
        assertThat(weight(cluster, "root.q0")).as("served right after the PUT").isEqualTo(9).isNotEqualTo(weightBefore);
        assertThat(count(MetricNames.LIVE_REBUILDS)).as("nothing replayed").isEqualTo(rebuilds);
        assertThat(count(MetricNames.LIVE_CONTINUED)).isEqualTo(continued + 1);
        JsonNode audit = JSON.readTree(given().queryParam("cluster", cluster).get("/api/v1/admin/audit").then()
                .statusCode(200).extract().asString());
        assertThat(audit.get(0).get("effectiveFrom").asText()).isEqualTo(takenAt);

        EventPublisher.publishYarn(bootstrap, cluster, after);
        LiveViewsTest.awaitEvery(cluster, ordered);
        assertThat(count(MetricNames.LIVE_REBUILDS)).as("the late fact rebuilt the ledger").isGreaterThan(rebuilds);

        String stored = given().get("/api/v1/admin/clusters/" + cluster + "/ledger-settings").then().statusCode(200)
                .extract().asString();
        JsonNode kept = JSON.readTree(stored).get("earlier").get(0);
        assertThat(kept.get("until").asText()).isEqualTo(takenAt);
        // the entry keeps what differed from the tree after it, the weight before the change, not every tenant
        assertThat(kept.has("tenants")).isFalse();
        assertThat(kept.get("changed")).hasSize(1);
        assertThat(kept.get("changed").get(0).get("path").asText()).isEqualTo("root.q0");
        assertThat(kept.get("changed").get(0).get("weight").asDouble()).isEqualTo(weightBefore);
        // the grants, every integral since the registration, equal a replay of every event under the stored
        // settings; the periods closed before the late fact keep what they were closed with (adjustments follow)
        Path out = LiveViewsTest.account(lines, stored,
                Instant.ofEpochMilli(eventTime(ordered.get(ordered.size() - 1))).toString());
        JsonNode offlineGrants = JSON.readTree(out.resolve("grants.json").toFile());
        Awaitility.await().atMost(60, TimeUnit.SECONDS).pollInterval(1, TimeUnit.SECONDS).untilAsserted(
                () -> assertThat(JSON.readTree(given().get(base + "/grants").then().statusCode(200).extract()
                        .asString())).isEqualTo(offlineGrants));
    }

    /**
     * A change is served before its grants are computed; the tick computes them after it when those of the view before
     * were read (a resource manager polls them), and leaves them to their first reader otherwise.
     */
    @Test
    void theGrantsOfAChangeAreComputedAfterItWhenTheyAreRead() throws Exception {
        String cluster = "grants-after-change";
        LiveViewsTest.register(cluster, YarnWorkload.settings(START, 3));
        List<String> lines = YarnWorkload.lines(cluster, START, 200, 3, 5);
        EventPublisher.publishYarn(bootstrap, cluster, lines);
        LiveViewsTest.awaitEvery(cluster, lines); // reads the grants
        String tenant = "/api/v1/admin/clusters/" + cluster + "/tenants/root.q1";

        given().contentType(ContentType.JSON).body("{\"weight\":7}").put(tenant).then().statusCode(200);
        LiveView changed = live.find(cluster).orElseThrow();
        Awaitility.await().atMost(30, TimeUnit.SECONDS).until(changed::grantsComputed);
        assertThat(changed.grantsRead()).as("computed by the tick, not read").isFalse();

        given().contentType(ContentType.JSON).body("{\"weight\":8}").put(tenant).then().statusCode(200);
        LiveView unread = live.find(cluster).orElseThrow();
        assertThat(unread).isNotSameAs(changed);
        Awaitility.await().atMost(30, TimeUnit.SECONDS).until(() -> !live.ticking());
        assertThat(unread.grantsComputed()).as("nobody read the grants of the view before").isFalse();
        JsonNode grants = JSON.readTree(given().get("/api/v1/clusters/" + cluster + "/grants").then().statusCode(200)
                .extract().asString());
        assertThat(grants.toString()).contains("root.q1");
        // computed by that read, in the view that served it: the one above, or one a later tick put in its place (a
        // period closed meanwhile), whose grants nobody had read either
        assertThat(live.find(cluster).orElseThrow().grantsComputed()).isTrue();
    }

    private double count(String name) {
        return registry.counter(name).count();
    }

    private static double weight(String cluster, String tenant) throws Exception {
        JsonNode view = JSON.readTree(given().get("/api/v1/clusters/" + cluster + "/tenants/" + tenant).then()
                .statusCode(200).extract().asString());
        return view.get("weight").asDouble();
    }

    private static long eventTime(String line) {
        try {
            return JSON.readTree(line).get("eventTime").asLong();
        } catch (Exception e) {
            throw new IllegalArgumentException(line, e);
        }
    }
}
