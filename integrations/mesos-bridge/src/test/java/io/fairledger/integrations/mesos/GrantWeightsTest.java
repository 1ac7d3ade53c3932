package io.fairledger.integrations.mesos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class GrantWeightsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aTenantPathIsTheMesosRoleBelowTheRoot() {
        assertThat(GrantWeights.role("root.analytics.etl")).isEqualTo("analytics/etl");
        assertThat(GrantWeights.role("root.science")).isEqualTo("science");
        assertThat(GrantWeights.role("analytics/etl")).isEqualTo("analytics/etl");
        assertThat(GrantWeights.role("root")).isEmpty();
    }

    @Test
    void everyGrantedTenantOfEveryLevelIsARoleWeightedByItsShareAndAShareOfZeroIsTheSmallestWeight()
            throws Exception {
        Map<String, Double> weights = GrantWeights.weights(JSON.readTree("{\"levels\":["
                + "{\"parent\":\"root\",\"grants\":[{\"tenant\":\"root.analytics\",\"vcores\":12,\"share\":0.75},"
                + "{\"tenant\":\"root.science\",\"vcores\":0,\"share\":0.0}]},"
                + "{\"parent\":\"root.analytics\",\"grants\":[{\"tenant\":\"root.analytics.etl\",\"vcores\":4,\"share\":0.25}]}]}"));

        assertThat(weights).containsExactly(Map.entry("analytics", 0.75), Map.entry("analytics/etl", 0.25),
                Map.entry("science", GrantWeights.MIN_WEIGHT));
        assertThat(GrantWeights.updateWeights(weights)).isEqualTo("{\"type\":\"UPDATE_WEIGHTS\",\"update_weights\":"
                + "{\"weight_infos\":[{\"role\":\"analytics\",\"weight\":0.75},{\"role\":\"analytics/etl\","
                + "\"weight\":0.25},{\"role\":\"science\",\"weight\":0.001}]}}");
    }
}
