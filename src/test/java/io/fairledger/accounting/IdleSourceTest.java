package io.fairledger.accounting;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;
import io.fairledger.testsupport.ServedStatements;
import io.fairledger.testsupport.TestClusters;

/**
 * A partition that delivers nothing more after a point (docs/accounting.md, "Per-source watermarks") holds the
 * cluster's periods open only until the other partition has delivered for longer than the idle timeout (here 2 s of
 * arrival time) since its last delivery; the periods then close on the facts that came.
 */
@QuarkusTest
@TestProfile(IdleSourceTest.ShortIdleTimeout.class)
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class IdleSourceTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String IDLE = "2s";

    public static class ShortIdleTimeout implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("fairledger.closing.source-idle-timeout", IDLE);
        }
    }

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Inject
    DataSource dataSource;

    @Test
    void anIdlePartitionDoesNotHoldAPeriodOpenPastTheTimeout() throws Exception {
        String cluster = "idle-partition";
        SourcesOfOneCluster sources = new SourcesOfOneCluster(cluster, bootstrap);
        List<String> first = new ArrayList<>();
        for (int minute = 0; minute <= 5 * 60; minute += 20) {
            first.add(sources.container("a" + minute, "root.a", 2, minute, 50));
        }
        // partition 1 delivers one container in period 0, then nothing
        String silent = sources.container("b0", "root.b", 3, 0, 20);
        String until = "2026-11-20T04:00:00Z";
        JsonNode offline = sources.account(SourceWatermarksTest.concat(first, List.of(silent)), until);
        assertThat(offline.size()).as("periods 0 to 3").isEqualTo(4);

        TestClusters.registerYarn(cluster, SourcesOfOneCluster.SETTINGS);
        sources.publish(0, first.subList(0, 1));
        sources.publish(1, List.of(silent));
        Awaitility.await().atMost(60, TimeUnit.SECONDS)
                .until(() -> sources.stored(dataSource, 0) > 0 && sources.stored(dataSource, 1) > 0);
        // partition 1 is idle once the arrival clock is more than the timeout past its delivery: what PostgreSQL's
        // clock says now is what the next transaction's ingested_at will say at least
        Awaitility.await().atMost(60, TimeUnit.SECONDS).pollInterval(500, TimeUnit.MILLISECONDS)
                .until(() -> silentFor(cluster) > 2.5);
        sources.publish(0, first.subList(1, first.size()));

        Awaitility.await().atMost(90, TimeUnit.SECONDS).pollInterval(1, TimeUnit.SECONDS).untilAsserted(() -> {
            String body = given().accept(ContentType.JSON).queryParam("until", until)
                    .get("/api/v1/admin/clusters/" + cluster + "/statements").then().statusCode(200).extract()
                    .asString();
            assertThat(ServedStatements.withoutChain(JSON.readTree(body))).isEqualTo(offline);
        });
    }

    /** Seconds since partition 1 last stored a fact of the cluster, by PostgreSQL's clock. */
    private double silentFor(String cluster) throws Exception {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT extract(epoch FROM clock_timestamp() "
                        + "- max(ingested_at)) FROM ledger_fact WHERE cluster_id = ? AND source_partition = 1")) {
            ps.setString(1, cluster);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getDouble(1);
            }
        }
    }
}
