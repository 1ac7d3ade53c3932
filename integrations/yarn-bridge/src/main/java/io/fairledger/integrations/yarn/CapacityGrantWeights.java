package io.fairledger.integrations.yarn;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Fairledger's grants as Capacity Scheduler queue settings, for {@link FairledgerCapacityScheduler}: every child queue
 * the grants name gets its granted dominant {@code share} as its weight ({@code capacity = <share>w}, weight mode) and
 * a {@code priority} from its place in the grants' order (the first of {@code n} children gets {@code n}, the last 1).
 * Weights make a parent divide its resources in the grants' ratios; with the parent's ordering policy
 * {@code priority-utilization}, the priorities make it serve the queues below their guaranteed capacity in the grants'
 * order first, as {@link FairledgerGrantsPolicy} does for the Fair Scheduler. A child whose parent has no grants (none
 * received, older than their validity, or not naming it) gets back the operator's own settings, the baseline read when
 * the bridge started.
 */
final class CapacityGrantWeights {

    /** The weight set for a share of 0: a weight of 0 would leave the queue without a guarantee even when alone. */
    static final double MIN_WEIGHT = 0.001;
    static final String CAPACITY = "capacity";
    static final String PRIORITY = "priority";
    private static final String PREFIX = "yarn.scheduler.capacity.";

    private CapacityGrantWeights() {
    }

    /** The configuration key of a queue's setting. */
    static String key(String queue, String param) {
        return PREFIX + queue + "." + param;
    }

    /**
     * The settings to change, per child queue: what the grants say (or the baseline, without grants) where it differs
     * from the current configuration. Empty when nothing is to change.
     *
     * @param tree every parent queue's path with its children's paths
     * @param levels the grants of a parent's children by path, or null when there are none
     * @param current the current configuration, by key (null for unset)
     * @param baseline the operator's configuration, by key (null for unset)
     */
    static Map<String, Map<String, String>> changes(Map<String, List<String>> tree,
            Function<String, Map<String, GrantsClient.Target>> levels, Function<String, String> current,
            Function<String, String> baseline) {
        Map<String, Map<String, String>> changes = new LinkedHashMap<>();
        tree.forEach((parent, children) -> {
            Map<String, GrantsClient.Target> level = levels.apply(parent);
            for (String child : children) {
                GrantsClient.Target target = level == null ? null : level.get(child);
                Map<String, String> wanted = new HashMap<>();
                wanted.put(CAPACITY, target == null ? baseline.apply(key(child, CAPACITY)) : weight(target.share()));
                wanted.put(PRIORITY, target == null
                        ? baseline.apply(key(child, PRIORITY))
                        : Integer.toString(level.size() - target.rank()));
                wanted.forEach((param, value) -> {
                    if (!Objects.equals(value, current.apply(key(child, param)))) {
                        changes.computeIfAbsent(child, c -> new LinkedHashMap<>()).put(param, value);
                    }
                });
            }
        });
        return changes;
    }

    /** A share as a weight-mode capacity, three decimals (finer changes are not worth a queue refresh). */
    static String weight(double share) {
        return String.format(Locale.ROOT, "%.3fw", Math.max(share, MIN_WEIGHT));
    }
}
