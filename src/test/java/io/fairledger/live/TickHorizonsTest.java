package io.fairledger.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

import io.fairledger.accounting.ClosingService;
import io.fairledger.core.chargeback.ChargeModel;
import io.fairledger.core.model.ParPolicy;
import io.fairledger.tenancy.LedgerSettings;

class TickHorizonsTest {

    private static final LedgerSettings SETTINGS = LiveLedgerCheckpointTest.settings(
            new LedgerSettings.Memory("FULL", null, null, null), ParPolicy.MAX, ChargeModel.USAGE);

    /** Where each cluster's first period is due to close, or a failure for {@code "broken"}. */
    private static final class Due extends ClosingService {
        private final Map<String, Long> at;

        Due(Map<String, Long> at) {
            this.at = at;
        }

        @Override
        public OptionalLong firstDue(String clusterId, long latest, String horizon) {
            if (clusterId.equals("broken")) {
                throw new IllegalStateException("the stored settings of a closed period of broken are unreadable");
            }
            Long position = at.get(clusterId);
            return position == null ? OptionalLong.empty() : OptionalLong.of(position);
        }
    }

    private static Map<String, LiveLedger> ledgers(String... ids) {
        Map<String, LiveLedger> out = new HashMap<>();
        for (String id : ids) {
            out.put(id, new LiveLedger(id, SETTINGS, List.of()));
        }
        return out;
    }

    private static final long[] SPAN = {0, 1};

    @Test
    void aTickStopsJustAfterTheEarliestClosingTransactionAmongItsFacts() {
        Map<String, long[]> spans = Map.of("a", SPAN, "b", SPAN, "c", SPAN);
        assertThat(TickHorizons.stop("100", "200", spans, ledgers("a", "b", "c"), new Due(Map.of("a", 150L,
                "b", 120L)))).isEqualTo("121");
        assertThat(TickHorizons.stop("100", "200", spans, ledgers("a", "b", "c"), new Due(Map.of())))
                .as("nothing due").isEqualTo("200");
        assertThat(TickHorizons.stop("100", "200", spans, ledgers("a", "b", "c"), new Due(Map.of("a", 99L))))
                .as("due before this tick's facts: closed by a replay, the tick goes on").isEqualTo("200");
        assertThat(TickHorizons.stop("100", "200", spans, ledgers("a"), new Due(Map.of("b", 120L))))
                .as("a cluster without a ledger is built, not closed from").isEqualTo("200");
    }

    @Test
    void aClusterWhoseClosingCannotBeReadDoesNotStopTheOthersTick() {
        Map<String, long[]> spans = Map.of("broken", SPAN, "a", SPAN);
        assertThat(TickHorizons.stop("100", "200", spans, ledgers("broken", "a"), new Due(Map.of("a", 130L))))
                .isEqualTo("131");
    }
}
