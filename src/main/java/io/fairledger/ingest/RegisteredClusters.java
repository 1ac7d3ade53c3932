package io.fairledger.ingest;

import java.time.Instant;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The consumer's {@link Intake.Clusters}: each cluster's {@code registeredAt} as last read from tenancy. Read again
 * when an event names a cluster not known yet (as a registration earlier in the same batch may have added it), and
 * at most once per batch when it names one that had no ledger settings yet (so settings given while events flow
 * apply from the next batch on). Consumer thread only.
 */
final class RegisteredClusters implements Intake.Clusters {

    private final Supplier<Map<String, Instant>> read;
    private Map<String, Instant> known = Map.of();
    private boolean readThisBatch;

    /** @param read every registered cluster's {@code registeredAt} ({@link Instant#MIN} without ledger settings) */
    RegisteredClusters(Supplier<Map<String, Instant>> read) {
        this.read = read;
    }

    /** A new batch: the clusters may be read again once. */
    void newBatch() {
        readThisBatch = false;
    }

    @Override
    public Instant registeredAt(String clusterId) {
        Instant registeredAt = known.get(clusterId);
        if (registeredAt == null || (registeredAt.equals(Instant.MIN) && !readThisBatch)) {
            known = Map.copyOf(read.get());
            readThisBatch = true;
            registeredAt = known.get(clusterId);
        }
        return registeredAt;
    }
}
