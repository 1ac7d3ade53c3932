package io.fairledger.core.replay;

import java.util.Objects;

import io.fairledger.core.chargeback.ChargebackConfig;
import io.fairledger.core.model.ClusterConfig;

/**
 * What a replay needs besides the events.
 *
 * @param cluster
 *            the cluster's configuration (its registration instant starts the ledger)
 * @param periods
 *            where statements are cut
 * @param chargeback
 *            how they are priced
 * @param until
 *            the replay's end, epoch millis: every period ending at or before it is closed and stated; the open period
 *            is reported as accounts at this instant
 */
public record ReplayConfig(ClusterConfig cluster, Schedule periods, ChargebackConfig chargeback, long until) {

    public ReplayConfig {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(periods, "periods");
        Objects.requireNonNull(chargeback, "chargeback");
        if (until < cluster.registeredAt()) {
            throw new IllegalArgumentException("replay end " + until + " is before the cluster's registration "
                    + cluster.registeredAt());
        }
    }
}
