package io.fairledger.core.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class JainIndexTest {

    @Test
    void repeatedValuesCountAsManyTimes() {
        assertThat(JainIndex.ofRepeated(new double[]{9, 1, 3}, new int[]{0, 2, 1}, 1, 3))
                .isCloseTo(JainIndex.of(new double[]{1, 1, 3}), within(1e-15));
        // (1 + 1 + 3)^2 / (3 * 11)
        assertThat(JainIndex.of(new double[]{1, 1, 3})).isCloseTo(25.0 / 33, within(1e-15));
        assertThat(JainIndex.ofRepeated(new double[]{0, 0}, new int[]{3, 4}, 0, 2)).isEqualTo(1.0);
    }
}
