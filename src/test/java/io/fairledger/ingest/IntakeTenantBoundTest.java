package io.fairledger.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fairledger.ingest.schema.EventDecoder;
import io.fairledger.tenancy.SettingsLimits;
import io.fairledger.testsupport.YarnWorkload;

/**
 * The bound on the tenants events create in a cluster ({@link TenantBound}), at unit level with a bound of four
 * tenants: the server's bound is {@link SettingsLimits#MAX_TENANTS}, the same rule.
 */
class IntakeTenantBoundTest {

    private static final Instant AT = Instant.parse("2001-04-01T00:00:00Z");

    private final EventDecoder decoder = new EventDecoder(Clock.fixed(AT.plusSeconds(3_600), ZoneOffset.UTC));
    // registered: root.a, so the root and root.a are known; two more tenants fit
    private final Intake intake = new Intake(cluster -> Instant.MIN, KnownStarts.NONE,
            new TenantBound(4, cluster -> List.of("root.a")));

    @Test
    void anEventThatWouldAddTenantsBeyondTheBoundIsADeadLetterAndAddsNone() {
        assertThat(accept("c", "root.a.b")).isInstanceOf(Intake.Facts.class);
        Intake.Outcome refused = accept("c", "root.c.d");
        assertThat(refused).isInstanceOf(Intake.Rejected.class);
        assertThat(((Intake.Rejected) refused).code()).isEqualTo(TenantBound.TOO_MANY_TENANTS);
        assertThat(((Intake.Rejected) refused).reason()).isEqualTo("too-many-tenants: tenant 'root.c.d' would add 2"
                + " tenant(s) to cluster 'c', which has 3; a cluster has at most 4 tenants, the root and implicit"
                + " ancestors included");
        assertThat(accept("c", "root.c")).as("the refused event added nothing").isInstanceOf(Intake.Facts.class);
        assertThat(accept("c", "root.c.d")).isInstanceOf(Intake.Rejected.class);
    }

    @Test
    void tenantsAlreadyKnownAreAlwaysAcceptedAndEachClusterHasItsOwnCount() {
        assertThat(accept("c", "root.a.b")).isInstanceOf(Intake.Facts.class);
        assertThat(accept("c", "root.x")).isInstanceOf(Intake.Facts.class);
        assertThat(accept("c", "root.y")).isInstanceOf(Intake.Rejected.class);
        assertThat(accept("c", "root.a.b")).isInstanceOf(Intake.Facts.class);
        assertThat(accept("c", "root.a")).isInstanceOf(Intake.Facts.class);
        assertThat(accept("other", "root.y")).isInstanceOf(Intake.Facts.class);
    }

    private Intake.Outcome accept(String cluster, String queue) {
        String line = YarnWorkload.last(cluster, AT).replace("\"root.q0\"", "\"" + queue + "\"");
        return intake.accept(decoder.decodeJson(line.getBytes(StandardCharsets.UTF_8)));
    }
}
