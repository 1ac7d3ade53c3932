package io.fairledger.live;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;

/**
 * Which stored checkpoints {@link LedgerCheckpoints#save} keeps: the {@code keep} newest, the newest of each of the
 * {@code periods} latest periods, and every pinned one; none under another settings version.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class CheckpointThinningTest {

    private static final String CLUSTER = "thinning-yarn";
    private static final String VERSION = "v1";

    @Inject
    LedgerCheckpoints checkpoints;

    @Inject
    DataSource dataSource;

    @Test
    void keepsTheNewestThePeriodsEndsAndThePinned() throws Exception {
        given().contentType(ContentType.JSON).body("{\"id\":\"" + CLUSTER + "\",\"resourceManager\":\"YARN\"}")
                .post("/api/v1/admin/clusters").then().statusCode(201);
        checkpoints.save(CLUSTER, "v0", stored(1), "p0", new byte[]{1}, 2, 3);
        // two checkpoints in each of the periods p1 to p6, at 10, 11, 20, 21, ..., 60, 61; the one at 20 pinned
        for (int period = 1; period <= 6; period++) {
            for (int i = 0; i < 2; i++) {
                checkpoints.save(CLUSTER, VERSION, stored(period * 10 + i), "p" + period, new byte[]{1}, 2, 3);
                if (period * 10 + i == 20) {
                    try (Connection c = dataSource.getConnection()) {
                        assertThat(LedgerCheckpoints.pin(c, CLUSTER, VERSION, 20)).isTrue();
                    }
                }
            }
        }
        List<Long> kept = new ArrayList<>();
        for (LedgerCheckpoints.Stored s : checkpoints.newestFirst(CLUSTER, VERSION, "1000")) {
            kept.add(s.eventTimeMs());
        }
        // newest two: 61, 60; newest of p6, p5, p4: 61, 51, 41; pinned: 20
        assertThat(kept).containsExactly(61L, 60L, 51L, 41L, 20L);
        assertThat(checkpoints.newestFirst(CLUSTER, "v0", "1000")).as("another version's").isEmpty();

        checkpoints.save(CLUSTER, VERSION, stored(70), "p7", new byte[]{1}, 2, 0);
        kept.clear();
        for (LedgerCheckpoints.Stored s : checkpoints.newestFirst(CLUSTER, VERSION, "1000")) {
            kept.add(s.eventTimeMs());
        }
        assertThat(kept).as("periods = 0 keeps the newest and the pinned only").containsExactly(70L, 61L, 20L);
    }

    private static LedgerCheckpoints.Stored stored(long eventTimeMs) {
        return new LedgerCheckpoints.Stored(eventTimeMs, "3", eventTimeMs);
    }
}
