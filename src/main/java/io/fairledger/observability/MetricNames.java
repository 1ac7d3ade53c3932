package io.fairledger.observability;

/** Every metric and tag name fairledger publishes, in one place (documented in docs/metrics.md). */
public final class MetricNames {

    /**
     * Counter: records read from Kafka, by {@link #TOPIC} and {@link #OUTCOME}: applied (registrations), accepted
     * (ledger facts), ignored (no accounting meaning), admission (kept for the admission service), dead-letter, and
     * duplicate (facts already stored; topic "all").
     */
    public static final String INGEST_EVENTS = "fairledger.ingest.events";
    /** Timer: decoding, validating and normalising one polled batch, dead letters acknowledged. */
    public static final String INGEST_BATCH_DECODE = "fairledger.ingest.batch.decode";
    /** Timer: committing one batch's facts and offsets to PostgreSQL in one transaction. */
    public static final String INGEST_BATCH_COMMIT = "fairledger.ingest.batch.commit";

    // ---- per tenant (tags CLUSTER, TENANT; at most fairledger.metrics.max-tenants-per-cluster tenants each) ----
    /** Gauge: absolute share S, fraction of cluster capacity (docs/domain.md section 2). */
    public static final String TENANT_SHARE = "fairledger.tenant.share.ratio";
    /** Gauge: held share g now (allocation), fraction of capacity. */
    public static final String TENANT_ALLOCATION = "fairledger.tenant.allocation.ratio";
    /** Gauge: demand share d now (held + pending), fraction of capacity. */
    public static final String TENANT_DEMAND = "fairledger.tenant.demand.ratio";
    /** Gauge: entitlement e = min(d, S) now, fraction of capacity. */
    public static final String TENANT_ENTITLEMENT = "fairledger.tenant.entitlement.ratio";
    /** Gauge: A, actual usage accumulated over the open period, capacity-seconds. */
    public static final String TENANT_USAGE_ACTUAL = "fairledger.tenant.usage.actual.capacity.seconds";
    /** Gauge: F, counted usage (borrowing discounted, LTRF eq. 7) over the open period, capacity-seconds. */
    public static final String TENANT_USAGE_COUNTED = "fairledger.tenant.usage.counted.capacity.seconds";
    /** Gauge: E, entitled usage accumulated over the open period, capacity-seconds. */
    public static final String TENANT_USAGE_ENTITLED = "fairledger.tenant.usage.entitled.capacity.seconds";
    /** Gauge: rho = A / E over the open period (absent when E = 0). */
    public static final String TENANT_FAIRNESS = "fairledger.tenant.fairness.degree.ratio";
    /** Gauge: lending balance over the open period, capacity-seconds: lent minus owed among its siblings. */
    public static final String TENANT_LENDING_BALANCE = "fairledger.tenant.lending.balance.capacity.seconds";
    /** Gauge: charge of the open period to date, in the cluster's currency. */
    public static final String TENANT_CHARGE = "fairledger.tenant.charge";

    // ---- per cluster (tag CLUSTER) ----
    /** Gauge: Psi, sharing benefit over the open period (LTRF eq. 4). */
    public static final String CLUSTER_SHARING_BENEFIT = "fairledger.cluster.sharing.benefit.ratio";
    /** Gauge: Omega, sharing loss over the open period (LTRF eq. 5, <= 0). */
    public static final String CLUSTER_SHARING_LOSS = "fairledger.cluster.sharing.loss.ratio";
    /** Gauge: Jain's index over the tenants' demand fractions, open period. */
    public static final String CLUSTER_JAIN = "fairledger.cluster.jain.index.ratio";
    /** Gauge: CPU capacity in cores (YARN vcores, Mesos cpus). */
    public static final String CLUSTER_CAPACITY_CPU = "fairledger.cluster.capacity.cpu.cores";
    /** Gauge: memory capacity in bytes. */
    public static final String CLUSTER_CAPACITY_MEMORY = "fairledger.cluster.capacity.memory.bytes";
    /** Gauge: GPU capacity in devices. */
    public static final String CLUSTER_CAPACITY_GPU = "fairledger.cluster.capacity.gpu.devices";
    /** Gauge: held share of the whole cluster now (dominant resource), fraction. */
    public static final String CLUSTER_UTILIZATION = "fairledger.cluster.utilization.ratio";

    // ---- admission (tag CLUSTER) ----
    /** Counter: admission decisions by OUTCOME: admitted, queued, dropped, killed. */
    public static final String ADMISSION_DECISIONS = "fairledger.admission.decisions";
    /** Gauge: jobs waiting in the admission queue. */
    public static final String ADMISSION_QUEUE = "fairledger.admission.queue.jobs";
    /** Gauge: Justice's CPU fraction by tag KIND: min, max, last, corrected. */
    public static final String ADMISSION_CPU_FRACTION = "fairledger.admission.cpu.ratio";
    /** Gauge: satisfied deadline ratio of the finished jobs to date. */
    public static final String ADMISSION_SDR = "fairledger.admission.satisfied.deadline.ratio";
    /** Gauge: productive time ratio to date. */
    public static final String ADMISSION_PTR = "fairledger.admission.productive.time.ratio";
    /** Gauge: wasted time ratio to date. */
    public static final String ADMISSION_WTR = "fairledger.admission.wasted.time.ratio";

    // ---- ingestion ----
    /** Counter: records sent to the dead-letter topic, by TOPIC and REASON. */
    public static final String INGEST_DEAD_LETTERS = "fairledger.ingest.dead.letters";
    /** Gauge: consumer lag in records, by TOPIC and PARTITION. */
    public static final String INGEST_CONSUMER_LAG = "fairledger.ingest.consumer.lag.records";
    /** Gauge: records of every partition of the consumed topics after the group's stored offsets. */
    public static final String INGEST_BACKLOG = "fairledger.ingest.backlog.records";
    /** Gauge: records of Mesos task starts without resources, of this replica's partitions, that wait for resources. */
    public static final String INGEST_WAITING_RECORDS = "fairledger.ingest.waiting.records";
    /** Gauge: how long records have waited while nothing was stored (0 while batches are stored or none wait). */
    public static final String INGEST_STALL = "fairledger.ingest.stall.seconds";

    /**
     * Gauge: the event time of the newest event of a cluster stored from a {@link #SOURCE}, epoch seconds; by
     * {@link #CLUSTER} and {@link #SOURCE} (clusters x event-topic partitions at most).
     */
    public static final String SOURCE_LAST_EVENT_TIME = "fairledger.source.last.event.time.seconds";
    /** Gauge: when this replica last stored an event of a cluster from a {@link #SOURCE}, epoch seconds. */
    public static final String SOURCE_LAST_RECEIVED_TIME = "fairledger.source.last.received.time.seconds";
    /** Gauge: when a resource manager last fetched a {@link #CLUSTER}'s grants from this replica, epoch seconds. */
    public static final String GRANTS_LAST_FETCH_TIME = "fairledger.grants.last.fetch.time.seconds";
    /** Gauge: 1 when PostgreSQL answered this replica's last check, 0 when it did not. */
    public static final String DATABASE_UP = "fairledger.database.up";
    /** Gauge: 1 when the schema registry answered this replica's last check, 0 when it did not; absent without one. */
    public static final String SCHEMA_REGISTRY_UP = "fairledger.schema.registry.up";

    /**
     * Gauge, always 1: the build this server runs, by tags {@link #VERSION} and {@link #COMMIT} (join it to other
     * series, or count the versions running).
     */
    public static final String BUILD_INFO = "fairledger.build.info";

    /** Counter: live ledgers rebuilt from every stored fact (a fact older than the latest, or a settings change). */
    public static final String LIVE_REBUILDS = "fairledger.live.rebuilds";
    /** Counter: settings changes live ledgers took in place, after their latest fact, with nothing replayed. */
    public static final String LIVE_CONTINUED = "fairledger.live.continued";
    /**
     * Counter: facts the live ledgers' ticks applied in place, by {@link #ORIGIN}: {@code memory} (stored by this
     * replica's consumer and handed over after its commit) or {@code database} (read back from PostgreSQL: another
     * replica's, or one not held in memory). A rebuild's facts are not counted.
     */
    public static final String LIVE_FACTS = "fairledger.live.facts";
    /**
     * Counter: bytes the live ledgers' ticks allocated on their thread (applying, rebuilding, the views, checkpoints,
     * closing): with {@link #LIVE_FACTS}, the allocation per fact.
     */
    public static final String LIVE_TICK_ALLOCATED = "fairledger.live.tick.allocated.bytes";
    /**
     * Timer: the live ledgers' tick, per cluster and {@link #PHASE}: apply (new facts streamed in), rebuild (from a
     * checkpoint, after a late fact or a settings change), view (the published view), close (periods due closed),
     * publish (metrics, once per tick), checkpoint (storing one; part of apply or rebuild); and within rebuild, restore
     * (finding and restoring the checkpoint) and query (the facts after it: until their first row arrives).
     */
    public static final String LIVE_TICK = "fairledger.live.tick";
    /**
     * Gauge per {@link #CLUSTER}: 1 when the server's check found a closed statement that does not hold in the
     * cluster's signed chain (docs/billing.md, "Verifying closed statements"), else 0.
     */
    public static final String STATEMENT_CHAIN_BROKEN = "fairledger.statement.chain.broken";

    public static final String CLUSTER = "cluster";
    public static final String TENANT = "tenant";
    /** Label of money gauges: the cluster's ISO 4217 currency code. */
    public static final String CURRENCY = "currency";
    public static final String VERSION = "version";
    public static final String COMMIT = "commit";
    public static final String KIND = "kind";
    /** Label of {@link #LIVE_FACTS}: where the facts came from. */
    public static final String ORIGIN = "origin";
    /** Label of {@link #LIVE_TICK}: the tick's phase. */
    public static final String PHASE = "phase";
    public static final String REASON = "reason";
    public static final String PARTITION = "partition";
    /** Label of the per-source gauges: an event topic's partition, {@code <topic>-<partition>}. */
    public static final String SOURCE = "source";

    public static final String TOPIC = "topic";
    public static final String OUTCOME = "outcome";

    private MetricNames() {
    }
}
