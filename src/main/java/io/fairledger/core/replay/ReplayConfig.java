package io.fairledger.core.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

import io.fairledger.core.chargeback.ChargebackConfig;
import io.fairledger.core.model.ClusterConfig;

/**
 * What a replay needs besides the events.
 *
 * @param cluster
 *            the cluster's configuration from its registration (which starts the ledger) until the first change
 * @param periods
 *            where statements are cut
 * @param chargeback
 *            how they are priced until the first change
 * @param until
 *            the replay's end, epoch millis: every period ending at or before it is closed and stated; the open period
 *            is reported as accounts at this instant
 * @param changes
 *            the later settings, each in force from its instant on (prospective: {@link Change}), in order
 */
public record ReplayConfig(ClusterConfig cluster, Schedule periods, ChargebackConfig chargeback, long until,
        List<Change> changes) {

    /**
     * Other tenants (weights, discount-rate overrides, price plans, new ones), cluster discount rate or prices from
     * {@code at} on. The ledger takes them at {@code at} as it takes weight-change events
     * ({@link io.fairledger.core.ledger.ClusterLedger#reconfigure}): what it integrated before stays; a period closing
     * after {@code at} is priced by the change. Anything else of the cluster (capacity, memory, PAR, measure, quanta)
     * cannot change at an instant: the whole history is replayed under it.
     */
    public record Change(long at, ClusterConfig cluster, ChargebackConfig chargeback) {
        public Change {
            Objects.requireNonNull(cluster, "cluster");
            Objects.requireNonNull(chargeback, "chargeback");
        }
    }

    /** A configuration that never changed. */
    public ReplayConfig(ClusterConfig cluster, Schedule periods, ChargebackConfig chargeback, long until) {
        this(cluster, periods, chargeback, until, List.of());
    }

    public ReplayConfig {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(periods, "periods");
        Objects.requireNonNull(chargeback, "chargeback");
        if (until < cluster.registeredAt()) {
            throw new IllegalArgumentException("replay end " + until + " is before the cluster's registration "
                    + cluster.registeredAt());
        }
        changes = List.copyOf(changes);
        long previous = cluster.registeredAt();
        for (Change c : changes) {
            if (c.at() <= previous) {
                throw new IllegalArgumentException("each settings change must come after the registration and the "
                        + "change before it: " + c.at() + " is not after " + previous);
            }
            previous = c.at();
        }
    }

    /** The cluster's configuration in force at {@code t}: the last change's at or before it, else the first. */
    public ClusterConfig clusterAt(long t) {
        Change c = changeAt(t);
        return c == null ? cluster : c.cluster();
    }

    /** The prices in force at {@code t}, as {@link #clusterAt}. */
    public ChargebackConfig chargebackAt(long t) {
        Change c = changeAt(t);
        return c == null ? chargeback : c.chargeback();
    }

    /** The last change at or before {@code t}; null when none is, and the first configuration holds. */
    private Change changeAt(long t) {
        Change out = null;
        for (Change c : changes) {
            if (c.at() > t) {
                break;
            }
            out = c;
        }
        return out;
    }

    /**
     * Where the settings known change ({@link #upTo} differs on either side of each): the registration, then every
     * change's instant and every later schedule's start, in order.
     */
    public List<Long> versionStarts() {
        TreeSet<Long> starts = new TreeSet<>();
        starts.add(cluster.registeredAt());
        changes.forEach(c -> starts.add(c.at()));
        if (periods instanceof PiecewiseSchedule p) {
            p.pieces().forEach(piece -> starts.add(Math.max(piece.fromMs(), cluster.registeredAt())));
        }
        return List.copyOf(starts);
    }

    /**
     * This configuration as it was known at {@code t}: the changes at or before {@code t}, the schedules started at or
     * before it ({@link PiecewiseSchedule#upTo}). A replay's state at {@code t} is the same under both: what a
     * checkpoint's version names ({@link Checkpoint#settingsVersion(ReplayConfig, long)}).
     */
    public ReplayConfig upTo(long t) {
        List<Change> known = new ArrayList<>();
        for (Change c : changes) {
            if (c.at() <= t) {
                known.add(c);
            }
        }
        Schedule schedule = periods instanceof PiecewiseSchedule p ? p.upTo(t) : periods;
        return new ReplayConfig(cluster, schedule, chargeback, until, known);
    }
}
