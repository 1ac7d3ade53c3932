package io.fairledger.accounting;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jboss.logging.Logger;

/**
 * The checked {@code fairledger.closing.source-idle-timeout}; logs each source once when it stops holding a cluster's periods open ({@link SourceWatermarks}), and once when it
 * delivers again, as the closes find them ({@link ClosingService}).
 */
final class IdleSourceLog {

    private static final Logger LOG = Logger.getLogger(ClosingService.class);

    /** The bounds of {@code fairledger.closing.source-idle-timeout}. */
    private static final Duration MIN = Duration.ofSeconds(1);
    private static final Duration MAX = Duration.ofDays(7);

    private final Duration timeout;
    /** Per cluster, the sources found idle and logged: each is logged once until it delivers again. */
    private final Map<String, Set<String>> logged = new ConcurrentHashMap<>();

    /** Refuses {@code fairledger.closing.source-idle-timeout} {@code timeout} outside its bounds, naming the key. */
    IdleSourceLog(Duration timeout) {
        if (timeout.compareTo(MIN) < 0 || timeout.compareTo(MAX) > 0) {
            throw new IllegalStateException("fairledger.closing.source-idle-timeout must be between 1s and 7d, got "
                    + timeout);
        }
        this.timeout = timeout;
    }

    /** How long a source may be silent before it stops holding periods open. */
    Duration timeout() {
        return timeout;
    }

    /** Logs what changed for {@code clusterId}, whose sources {@code idle} are idle now. */
    void log(String clusterId, List<String> idle) {
        Set<String> was = logged.computeIfAbsent(clusterId, k -> ConcurrentHashMap.newKeySet());
        for (String source : idle) {
            if (was.add(source)) {
                LOG.infof("cluster %s: source %s delivered nothing for more than %s while others did: it no longer "
                        + "holds the cluster's periods open (its later facts for closed periods become adjustments)",
                        clusterId, source, timeout);
            }
        }
        for (String source : new HashSet<>(was)) {
            if (!idle.contains(source) && was.remove(source)) {
                LOG.infof("cluster %s: source %s delivers again", clusterId, source);
            }
        }
    }
}
