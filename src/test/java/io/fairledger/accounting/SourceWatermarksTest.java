package io.fairledger.accounting;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;
import io.fairledger.testsupport.ServedStatements;
import io.fairledger.testsupport.TestClusters;

/**
 * Per-source watermarks on the real server (docs/accounting.md, "Per-source watermarks"): one cluster's events on two
 * partitions, the second delivered after the first, hours behind it in event time (more than the lateness): its facts
 * count in their own periods, and the closed statements are those {@code fairledger account} gives for all the events,
 * without an adjustment line. With one watermark per cluster, periods 0 to 10 closed on the first partition's facts
 * alone and the second's came as adjustments.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class SourceWatermarksTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Inject
    DataSource dataSource;

    @Test
    void aLaggingPartitionsFactsCountInTheirOwnPeriods() throws Exception {
        String cluster = "lagging-partition";
        SourcesOfOneCluster sources = new SourcesOfOneCluster(cluster, bootstrap);
        // every 20 minutes for 12 hours: root.a on partition 0, root.b on partition 1, overlapping (b borrows from a)
        List<String> first = new ArrayList<>();
        List<String> second = new ArrayList<>();
        for (int minute = 0; minute <= 12 * 60; minute += 20) {
            first.add(sources.container("a" + minute, "root.a", 2, minute, 50));
            second.add(sources.container("b" + minute, "root.b", 7, minute + 5, 35));
        }
        String until = "2026-11-20T11:00:00Z";
        JsonNode offline = sources.account(concat(first, second), until);
        assertThat(offline.size()).as("periods 0 to 10").isEqualTo(11);
        assertThat(offline.get(10).get("state").asText()).isEqualTo("closed");

        TestClusters.registerYarn(cluster, SourcesOfOneCluster.SETTINGS);
        // each partition delivers its first event (a source holds periods open from its first delivery), then all of
        // partition 0, then, once it is stored, all of partition 1
        sources.publish(0, first.subList(0, 1));
        sources.publish(1, second.subList(0, 1));
        Awaitility.await().atMost(60, TimeUnit.SECONDS)
                .until(() -> sources.stored(dataSource, 0) > 0 && sources.stored(dataSource, 1) > 0);
        sources.publish(0, first.subList(1, first.size()));
        Awaitility.await().atMost(60, TimeUnit.SECONDS).until(() -> sources.stored(dataSource, 0) == first.size());
        sources.publish(1, second.subList(1, second.size()));

        Awaitility.await().atMost(90, TimeUnit.SECONDS).pollInterval(1, TimeUnit.SECONDS).untilAsserted(() -> {
            String body = given().accept(ContentType.JSON).queryParam("until", until)
                    .get("/api/v1/admin/clusters/" + cluster + "/statements").then().statusCode(200).extract()
                    .asString();
            assertThat(ServedStatements.withoutChain(JSON.readTree(body))).isEqualTo(offline);
        });
    }

    static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
