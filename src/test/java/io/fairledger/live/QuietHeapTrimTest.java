package io.fairledger.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;
import io.fairledger.testsupport.TestClusters;
import io.fairledger.testsupport.YarnWorkload;

/**
 * On the real server with {@code fairledger.memory.trim-after=1s}: something stored (a cluster's settings), then
 * nothing, and the server runs one collection of its own ({@link QuietHeapTrim}), as the JVM's own metric of collections
 * by cause counts it.
 */
@QuarkusTest
@TestProfile(QuietHeapTrimTest.QuickTrim.class)
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class QuietHeapTrimTest {

    private static final String CLUSTER = "heap-trim-yarn";

    /** A quiet time of one second. */
    public static class QuickTrim implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("fairledger.memory.trim-after", "1s");
        }
    }

    @Inject
    MeterRegistry registry;

    @Test
    void aQuietServerGivesTheHeapBackAfterSomethingWasStored() {
        double before = explicitCollections();
        // a trim collects only when the committed heap grew past what the last one left (an earlier trim may have
        // run after the server's start): grow it, as a burst of facts would, then store something
        grow();
        TestClusters.registerYarn(CLUSTER, YarnWorkload.settings(Instant.parse("2026-11-22T00:00:00Z"), 2));
        Awaitility.await().atMost(60, TimeUnit.SECONDS).pollInterval(200, TimeUnit.MILLISECONDS)
                .until(() -> explicitCollections() > before);
    }

    /** Holds 512 MB at once, more than the heap a test server commits, and lets it go. */
    private static void grow() {
        byte[][] burst = new byte[64][];
        for (int i = 0; i < burst.length; i++) {
            burst[i] = new byte[8 << 20];
            burst[i][i] = 1;
        }
        assertThat(burst[63][63]).isEqualTo((byte) 1);
    }

    /** Collections asked for by {@link System#gc}, by the JVM metrics' count of pauses. */
    private double explicitCollections() {
        return registry.find("jvm.gc.pause").tag("cause", "System.gc()").timers().stream().mapToDouble(Timer::count)
                .sum();
    }
}
