package io.fairledger.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

class RegisteredClustersTest {

    private static final Instant REGISTERED = Instant.parse("2026-11-20T00:00:00Z");

    private final Map<String, Instant> tenancy = new HashMap<>();
    private int reads;
    private final RegisteredClusters clusters = new RegisteredClusters(() -> {
        reads++;
        return Map.copyOf(tenancy);
    }, Map::of);

    @Test
    void aClusterRegisteredWithinTheBatchIsSeenAtOnce() {
        clusters.newBatch();
        assertThat(clusters.registeredAt("a")).isNull();
        tenancy.put("a", REGISTERED);
        assertThat(clusters.registeredAt("a")).as("a registration earlier in the same batch").isEqualTo(REGISTERED);
        assertThat(clusters.registeredAt("a")).isEqualTo(REGISTERED);
        assertThat(reads).isEqualTo(2);
    }

    @Test
    void settingsGivenLaterAreReadAtMostOncePerBatch() {
        tenancy.put("b", Instant.MIN);
        clusters.newBatch();
        assertThat(clusters.registeredAt("b")).isEqualTo(Instant.MIN);
        tenancy.put("b", REGISTERED);
        assertThat(clusters.registeredAt("b")).as("not read again in this batch").isEqualTo(Instant.MIN);
        clusters.newBatch();
        assertThat(clusters.registeredAt("b")).isEqualTo(REGISTERED);
        assertThat(reads).isEqualTo(2);
    }

    @Test
    void retentionFloorsAreReadWithTheFirstBatchAndKeptWhilePostgresqlIsAway() {
        Instant floor = Instant.parse("2026-10-01T00:00:00Z");
        boolean[] away = {false};
        RegisteredClusters withFloors = new RegisteredClusters(() -> Map.copyOf(tenancy), () -> {
            if (away[0]) {
                throw new IllegalStateException("cannot read the retention floors");
            }
            return Map.of("a", floor);
        }, 0);
        assertThat(withFloors.keptFrom("a")).as("none before the first batch").isNull();
        withFloors.newBatch();
        assertThat(withFloors.keptFrom("a")).isEqualTo(floor);
        assertThat(withFloors.keptFrom("b")).isNull();
        away[0] = true;
        withFloors.newBatch();
        assertThat(withFloors.keptFrom("a")).as("read again and failed: the last floors stand").isEqualTo(floor);
    }
}
