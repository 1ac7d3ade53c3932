package io.fairledger.integrations.yarn;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;

/**
 * The bridge's settings, read from the ResourceManager's configuration (yarn-site.xml). Every key starts with
 * {@code fairledger.}; {@code fairledger.kafka.<name>} passes {@code <name>} to the Kafka producer (security settings,
 * say).
 */
public record BridgeConfig(String cluster, Path journalDir, long segmentBytes, boolean fsync,
        long demandIntervalMillis, Map<String, Object> kafka) {

    public static final String CLUSTER = "fairledger.cluster";
    public static final String BOOTSTRAP = "fairledger.kafka.bootstrap.servers";
    public static final String JOURNAL_DIR = "fairledger.journal.dir";
    public static final String JOURNAL_SEGMENT_BYTES = "fairledger.journal.segment-bytes";
    public static final String JOURNAL_FSYNC = "fairledger.journal.fsync";
    public static final String DEMAND_INTERVAL = "fairledger.demand.interval-ms";
    private static final String KAFKA_PREFIX = "fairledger.kafka.";
    /** The ids fairledger registers (its {@code ConfigurationChanges.CLUSTER_ID_PATTERN}); the bridge puts it in URLs. */
    static final String CLUSTER_ID_PATTERN = "[a-z0-9][a-z0-9-]{0,62}";

    public static BridgeConfig from(Configuration conf) {
        String cluster = required(conf, CLUSTER);
        if (!cluster.matches(CLUSTER_ID_PATTERN)) {
            throw new IllegalArgumentException(CLUSTER + " is '" + cluster + "': fairledger's cluster ids are 1 to 63 "
                    + "lower-case letters, digits and '-', starting with a letter or digit (docs/integrations.md)");
        }
        required(conf, BOOTSTRAP);
        Map<String, Object> kafka = new HashMap<>();
        for (Map.Entry<String, String> e : conf.getPropsWithPrefix(KAFKA_PREFIX).entrySet()) {
            kafka.put(e.getKey(), e.getValue());
        }
        String dir = conf.get(JOURNAL_DIR, conf.get("hadoop.tmp.dir", "/tmp") + "/fairledger-journal");
        return new BridgeConfig(cluster, Path.of(dir), conf.getLong(JOURNAL_SEGMENT_BYTES, 16L << 20),
                conf.getBoolean(JOURNAL_FSYNC, false), conf.getLong(DEMAND_INTERVAL, 10_000), kafka);
    }

    private static String required(Configuration conf, String key) {
        String value = conf.getTrimmed(key);
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("the fairledger bridge needs " + key + " in yarn-site.xml "
                    + "(docs/integrations.md)");
        }
        return value;
    }
}
