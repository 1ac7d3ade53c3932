package io.fairledger.live;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.jboss.logging.Logger;

import io.fairledger.errors.NotReady;

/**
 * The clusters whose live ledger could not be built or updated, each with the reason: a replay that throws (settings
 * stored out of range by an older version, a schedule cutting more periods than a replay holds, a bug) or runs out of
 * memory. A quarantined cluster is left alone, so every other cluster's ledger keeps going; its views and grants answer
 * 503 naming the reason ({@link #refuse}). It is tried again as soon as its configuration changes (an admin's PUT of
 * valid settings repairs it), else after a back-off that doubles from {@link #FIRST_BACK_OFF} to {@link #LONGEST_BACK_OFF}:
 * one log line per attempt, no stack trace (at DEBUG only).
 */
final class Quarantine {

    private static final Logger LOG = Logger.getLogger(Quarantine.class);

    /** The wait before the first retry under unchanged settings. */
    static final Duration FIRST_BACK_OFF = Duration.ofMinutes(1);
    /** The longest wait between two retries under unchanged settings. */
    static final Duration LONGEST_BACK_OFF = Duration.ofHours(1);

    /** Why a cluster is held, under which configuration version, and when it is tried again (nanoTime). */
    private record Held(String reason, String version, long retryAtNanos, Duration backOff) {
    }

    private final Map<String, Held> held = new ConcurrentHashMap<>();

    /**
     * Whether {@code clusterId} is to be left alone now: quarantined, its configuration version (read only then) the one
     * it failed under, and its back-off not over.
     */
    boolean waits(String clusterId, Supplier<String> version, long nowNanos) {
        Held h = held.get(clusterId);
        return h != null && nowNanos - h.retryAtNanos() < 0 && h.version().equals(version.get());
    }

    /** Quarantines {@code clusterId} after {@code failure} under configuration {@code version}; logs one line. */
    void hold(String clusterId, String version, Throwable failure, long nowNanos) {
        Held before = held.get(clusterId);
        Duration backOff = before == null || !before.version().equals(version)
                ? FIRST_BACK_OFF
                : min(before.backOff().multipliedBy(2), LONGEST_BACK_OFF);
        String reason = failure.getClass().getSimpleName()
                + (failure.getMessage() == null ? "" : ": " + failure.getMessage());
        held.put(clusterId, new Held(reason, version, nowNanos + backOff.toNanos(), backOff));
        LOG.warnf("live ledger of cluster %s quarantined: %s; tried again when its settings or tenants change, "
                + "else in %s", clusterId, reason, backOff);
        LOG.debugf(failure, "live ledger of cluster %s: the failure", clusterId);
    }

    /**
     * Whether {@code failure} came from the database (an {@link SQLException} anywhere in its cause chain) rather than
     * from the cluster's state: an outage must not quarantine every cluster that happened to tick during it.
     */
    static boolean isDatabaseFailure(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException) {
                return true;
            }
        }
        return false;
    }

    /** Lifts the quarantine of {@code clusterId}, if any, after its ledger was built. */
    void release(String clusterId) {
        if (held.remove(clusterId) != null) {
            LOG.infof("live ledger of cluster %s: quarantine lifted", clusterId);
        }
    }

    /**
     * Refuses a read of {@code clusterId} while it is quarantined.
     *
     * @throws NotReady
     *             naming the reason, with the time until the next try as {@code Retry-After}
     */
    void refuse(String clusterId, long nowNanos) {
        Held h = held.get(clusterId);
        if (h != null) {
            Duration left = Duration.ofNanos(Math.max(0, h.retryAtNanos() - nowNanos));
            throw new NotReady("the live ledger of cluster '" + clusterId + "' cannot be built and is quarantined: "
                    + h.reason() + ". An admin repairs it with valid ledger settings (PUT /api/v1/admin/clusters/"
                    + clusterId + "/ledger-settings); else it is tried again in " + left.toSeconds() + " s",
                    left.isZero() ? NotReady.DEFAULT_RETRY_AFTER : left);
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
