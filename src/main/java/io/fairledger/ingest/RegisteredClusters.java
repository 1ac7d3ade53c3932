package io.fairledger.ingest;

import java.time.Instant;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The consumer's {@link Intake.Clusters}: each cluster's {@code registeredAt} as last read from tenancy. Read again
 * when an event names a cluster not known yet (as a registration earlier in the same batch may have added it), and
 * at most once per batch when it names one that had no ledger settings yet (so settings given while events flow
 * apply from the next batch on). The retention floors are read at most once a minute: a month is dropped long after its
 * periods closed, so a fact that late is rare, and one stored before its cluster's floor is not counted (the ledger
 * there is the pinned checkpoint). Consumer thread only.
 */
final class RegisteredClusters implements Intake.Clusters {

    /** How often the retention floors are read again. */
    static final long FLOORS_EVERY_MS = 60_000;

    private final long floorsEveryMs;
    private final Supplier<Map<String, Instant>> read;
    private final Supplier<Map<String, Instant>> readFloors;
    private Map<String, Instant> known = Map.of();
    private Map<String, Instant> floors = Map.of();
    private long floorsReadAt = Long.MIN_VALUE;
    private boolean readThisBatch;

    /**
     * @param read       every registered cluster's {@code registeredAt} ({@link Instant#MIN} without ledger settings)
     * @param readFloors every cluster's retention floor (docs/operations.md, retention), for those that have one
     */
    RegisteredClusters(Supplier<Map<String, Instant>> read, Supplier<Map<String, Instant>> readFloors) {
        this(read, readFloors, FLOORS_EVERY_MS);
    }

    /** The same, reading the floors again at most every {@code floorsEveryMs}. */
    RegisteredClusters(Supplier<Map<String, Instant>> read, Supplier<Map<String, Instant>> readFloors,
            long floorsEveryMs) {
        this.read = read;
        this.readFloors = readFloors;
        this.floorsEveryMs = floorsEveryMs;
    }

    /** A new batch: the clusters may be read again once, and the floors when a minute has passed. */
    void newBatch() {
        readThisBatch = false;
        long now = System.currentTimeMillis();
        if (floorsReadAt == Long.MIN_VALUE || now - floorsReadAt >= floorsEveryMs) {
            try {
                floors = Map.copyOf(readFloors.get());
                floorsReadAt = now;
            } catch (RuntimeException e) {
                // PostgreSQL away: the last floors stand, read again at the next batch (the commit waits for it anyway)
            }
        }
    }

    @Override
    public Instant keptFrom(String clusterId) {
        return floors.get(clusterId);
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
