package io.fairledger.accounting;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The {@code own} flag of a statement line in JSON: present only on own lines, read back without complaint. */
class StatementViewOwnTest {

    private final ObjectMapper json = new ObjectMapper();

    @Test
    void ownIsWrittenOnlyForOwnLinesAndReadBack() throws Exception {
        String own = json.writeValueAsString(line("root.analytics.(own)"));
        String leaf = json.writeValueAsString(line("root.analytics.etl"));
        assertThat(own).contains("\"own\":true");
        assertThat(leaf).doesNotContain("own");
        assertThat(json.readValue(own, StatementView.Line.class)).isEqualTo(line("root.analytics.(own)"));
    }

    private static StatementView.Line line(String tenant) {
        BigDecimal z = BigDecimal.ZERO;
        return new StatementView.Line(tenant, false, z, z, z, z, z, z, null, z, z, z, z, z, List.of(), z);
    }
}
