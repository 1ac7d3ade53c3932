package io.fairledger.integrations.yarn;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class CapacityGrantWeightsTest {

    private static final Map<String, List<String>> TREE = Map.of("root", List.of("root.steady", "root.bursty"));
    private static final Map<String, String> BASELINE = Map.of("yarn.scheduler.capacity.root.steady.capacity", "1w",
            "yarn.scheduler.capacity.root.bursty.capacity", "1w");

    @Test
    void grantedSharesBecomeWeightsAndTheGrantsOrderPriorities() {
        Map<String, GrantsClient.Target> level = Map.of("root.steady", new GrantsClient.Target(0, 6, 6144, 0, 0.75),
                "root.bursty", new GrantsClient.Target(1, 2, 2048, 0, 0.25));
        var changes = CapacityGrantWeights.changes(TREE, p -> p.equals("root") ? level : null, BASELINE::get,
                BASELINE::get);
        assertThat(changes).isEqualTo(Map.of("root.steady", Map.of("capacity", "0.750w", "priority", "2"),
                "root.bursty", Map.of("capacity", "0.250w", "priority", "1")));
    }

    @Test
    void nothingChangesWhenTheConfigurationAlreadyHasTheGrants() {
        Map<String, GrantsClient.Target> level = Map.of("root.steady", new GrantsClient.Target(0, 6, 6144, 0, 0.75),
                "root.bursty", new GrantsClient.Target(1, 2, 2048, 0, 0.25));
        Map<String, String> current = new HashMap<>();
        current.put(CapacityGrantWeights.key("root.steady", "capacity"), "0.750w");
        current.put(CapacityGrantWeights.key("root.steady", "priority"), "2");
        current.put(CapacityGrantWeights.key("root.bursty", "capacity"), "0.250w");
        current.put(CapacityGrantWeights.key("root.bursty", "priority"), "1");
        assertThat(CapacityGrantWeights.changes(TREE, p -> level, current::get, BASELINE::get)).isEmpty();
    }

    @Test
    void withoutGrantsTheOperatorsSettingsComeBackAndAPriorityTheyLeftUnsetIsUnset() {
        Map<String, String> current = Map.of("yarn.scheduler.capacity.root.steady.capacity", "0.750w",
                "yarn.scheduler.capacity.root.steady.priority", "2", "yarn.scheduler.capacity.root.bursty.capacity",
                "1w");
        var changes = CapacityGrantWeights.changes(TREE, p -> null, current::get, BASELINE::get);
        Map<String, String> steady = new HashMap<>();
        steady.put("capacity", "1w");
        steady.put("priority", null);
        assertThat(changes).isEqualTo(Map.of("root.steady", steady));
    }

    @Test
    void aChildTheGrantsDoNotNameKeepsTheBaselineAndAShareOfZeroKeepsAGuarantee() {
        Map<String, GrantsClient.Target> level = Map.of("root.steady", new GrantsClient.Target(0, 0, 0, 0, 0));
        var changes = CapacityGrantWeights.changes(TREE, p -> level, BASELINE::get, BASELINE::get);
        assertThat(changes).isEqualTo(Map.of("root.steady", Map.of("capacity", "0.001w", "priority", "1")));
    }
}
