package io.fairledger.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

import io.fairledger.facts.LedgerFact;
import io.fairledger.ingest.schema.EventDecoder;
import io.fairledger.testsupport.YarnWorkload;

/**
 * Facts before a cluster's retention floor: an event before it is a dead letter naming the floor; a YARN finish after
 * it keeps its finish and drops the repeated start before it (the pinned checkpoint holds that start).
 */
class IntakeRetentionTest {

    private static final Instant REGISTERED = Instant.parse("2001-03-01T00:00:00Z");
    private static final Instant FLOOR = Instant.parse("2001-04-01T00:03:00Z");

    private final EventDecoder decoder = new EventDecoder(Clock.fixed(Instant.parse("2001-05-01T00:00:00Z"),
            ZoneOffset.UTC));
    private final Intake intake = new Intake(new Intake.Clusters() {
        @Override
        public Instant registeredAt(String clusterId) {
            return REGISTERED;
        }

        @Override
        public Instant keptFrom(String clusterId) {
            return FLOOR;
        }
    }, KnownStarts.NONE, TenantBound.of(cluster -> java.util.List.of()));

    @Test
    void anEventBeforeTheFloorIsADeadLetterNamingIt() {
        Intake.Outcome outcome = accept(YarnWorkload.last("c", FLOOR.minusSeconds(60)));
        assertThat(outcome).isInstanceOf(Intake.Rejected.class);
        Intake.Rejected rejected = (Intake.Rejected) outcome;
        assertThat(rejected.code()).isEqualTo(Intake.BEFORE_RETENTION);
        assertThat(rejected.reason()).contains(FLOOR.toString()).contains("dropped by retention");
    }

    @Test
    void aFinishAfterTheFloorDropsItsStartBeforeIt() {
        // a one-second container starting 0.5 s before the floor: its COMPLETE, 0.5 s after, repeats the start
        Intake.Outcome outcome = accept(YarnWorkload.last("c", FLOOR.minusMillis(500)));
        assertThat(outcome).isInstanceOf(Intake.Facts.class);
        assertThat(((Intake.Facts) outcome).facts()).extracting(LedgerFact::dedupeKey)
                .containsExactly("task:container_1795251600000_9999_01_000001:finish");
    }

    private Intake.Outcome accept(String line) {
        return intake.accept(decoder.decodeJson(line.getBytes(StandardCharsets.UTF_8)));
    }
}
