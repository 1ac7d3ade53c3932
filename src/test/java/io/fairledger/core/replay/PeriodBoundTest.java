package io.fairledger.core.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fairledger.core.chargeback.ChargebackConfig;
import io.fairledger.core.model.ClusterConfig;
import io.fairledger.core.model.PricePlan;
import io.fairledger.core.model.ResourceVector;

/** A replay refuses to cut more periods than it holds before it cuts any, however far it is asked to go. */
class PeriodBoundTest {

    private static final long SECOND = 1000;
    private static final long YEAR = 365L * 24 * 3600 * SECOND;

    @Test
    void aYearOfOneSecondPeriodsIsRefusedBeforeAnyIsMade() {
        Replay replay = new Replay(config(SECOND));
        assertThatThrownBy(() -> replay.closeUntil(YEAR)).isInstanceOf(TooManyPeriods.class)
                .hasMessageContaining("31536000 closed periods").hasMessageContaining("100000");
        assertThat(replay.statements()).as("nothing allocated").isEmpty();
        assertThatThrownBy(() -> replay.closeUntil(Long.MAX_VALUE)).isInstanceOf(TooManyPeriods.class);
    }

    @Test
    void theBoundItselfIsReachedAndNotPassed() {
        Replay replay = new Replay(config(SECOND));
        replay.closeUntil(PeriodSchedule.MAX_PERIODS * SECOND - 1);
        assertThat(replay.statements()).hasSize((int) PeriodSchedule.MAX_PERIODS - 1);
        replay.closeUntil(PeriodSchedule.MAX_PERIODS * SECOND);
        assertThat(replay.statements()).hasSize((int) PeriodSchedule.MAX_PERIODS);
        assertThatThrownBy(() -> replay.closeUntil((PeriodSchedule.MAX_PERIODS + 1) * SECOND))
                .isInstanceOf(TooManyPeriods.class);
    }

    @Test
    void periodsEndingBetweenCountsWithoutOverflow() {
        PeriodSchedule hours = new PeriodSchedule(0, 3_600_000, "h");
        assertThat(hours.endingBetween(0, 3_599_999)).isZero();
        assertThat(hours.endingBetween(0, 3_600_000)).isEqualTo(1);
        assertThat(hours.endingBetween(Long.MIN_VALUE, Long.MAX_VALUE)).isEqualTo(
                new BigInteger("18446744073709551615").divide(BigInteger.valueOf(3_600_000))
                        .longValueExact());
        assertThat(hours.endingBetween(10, 5)).isZero();
    }

    private static ReplayConfig config(long periodMs) {
        ClusterConfig cluster = ClusterConfig.defaults("bound", 0, ResourceVector.ofMillicores(10_000, 10_240, 0),
                List.of());
        return new ReplayConfig(cluster, new PeriodSchedule(0, periodMs, "p"),
                ChargebackConfig.usage(new PricePlan("free", BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO)),
                YEAR);
    }
}
