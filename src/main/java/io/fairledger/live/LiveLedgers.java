package io.fairledger.live;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import org.jboss.logging.Logger;

import io.fairledger.accounting.ClosingService;
import io.fairledger.accounting.ClusterWriter;
import io.fairledger.accounting.EndedPeriods;
import io.fairledger.accounting.SettingsInForce;
import io.fairledger.config.FairledgerConfig;
import io.fairledger.core.chargeback.Statement;
import io.fairledger.errors.Conflict;
import io.fairledger.errors.NotFound;
import io.fairledger.errors.NotReady;
import io.fairledger.facts.FactCursor;
import io.fairledger.facts.FreshFacts;
import io.fairledger.observability.MetricNames;
import io.fairledger.tenancy.RegisteredCluster;
import io.fairledger.tenancy.ServedConfiguration;
import io.fairledger.tenancy.TenancyService;

/**
 * Every cluster's live ledger in this server, fed from the stored facts of the whole consumer group (so every replica
 * answers the same, whichever partitions it consumes): on each tick ({@link TickSchedule}), the facts stored since the
 * last horizon ({@link FactCursor}; those this replica stored, from memory: {@link FreshFacts}) are streamed into each
 * cluster's ledger in event-time order, one instant at a time (those read from PostgreSQL never all held, however many
 * came while the previous tick ran), a cluster whose settings changed or that received a fact older than its latest
 * one is rebuilt from its newest usable checkpoint and the facts after it ({@link BoundedReplays}), and a fresh
 * immutable {@link LiveView} is published for each cluster that changed; the checkpoints the update passed are stored
 * after that view is published; the periods due are closed after every view.
 * Readers never wait for the tick; the time of each phase is published ({@link MetricNames#LIVE_TICK}).
 */
@ApplicationScoped
public class LiveLedgers implements EndedPeriods, ServedConfiguration {

    private static final Logger LOG = Logger.getLogger(LiveLedgers.class);

    @Inject
    FactCursor cursor;

    @Inject
    FreshFacts fresh;

    @Inject
    SettingsInForce inForce;

    @Inject
    ClosingService closing;

    @Inject
    ClusterWriter writer;

    @Inject
    BoundedReplays replays;

    @Inject
    TenancyService tenancy;

    @Inject
    LedgerMetrics metrics;

    @Inject
    MeterRegistry registry;

    @Inject
    FairledgerConfig config;

    private final Map<String, LiveLedger> ledgers = new ConcurrentHashMap<>();
    private final Map<String, LiveView> views = new ConcurrentHashMap<>();
    private final Map<String, String> versions = new ConcurrentHashMap<>();
    /** The clusters whose grants were read in the view before the latest: the tick computes them for the next reader. */
    private final Set<String> grantsRead = ConcurrentHashMap.newKeySet();
    /** Every registered cluster as of the last tick, and whether it has ledger settings. */
    private final Map<String, Boolean> clusters = new ConcurrentHashMap<>();
    private String horizon = FactCursor.START;
    /** When to tick ({@code fairledger.live.poll-interval}). */
    private TickSchedule schedule;
    /** The thread that looks every {@code fairledger.live.check-interval}, once started. */
    private final LookThread looks = new LookThread(this::check);
    /** Whether a tick has read the stored facts once: from then on the views are served from memory. */
    private volatile boolean loaded;
    /** Looks that found something stored since the last tick, and whether a tick runs ({@link QuietHeapTrim}). */
    private final AtomicLong stores = new AtomicLong();
    private volatile boolean ticking;
    private TickMeters meters;
    /** Read-your-writes: which tick served which cluster ({@link #awaitServed}). */
    private final TickWaits waits = new TickWaits(looks::now);
    /** The clusters whose ledger could not be built, left alone until their settings change or a back-off ends. */
    private final Quarantine quarantine = new Quarantine();

    /**
     * The latest view of {@code clusterId}: 404 if unknown, 409 without ledger settings, 503 before its first replay or
     * while it is quarantined ({@link Quarantine}).
     * Reads only memory (the clusters as of the last tick), so it may be called on an I/O thread.
     */
    public LiveView view(String clusterId) {
        quarantine.refuse(clusterId, System.nanoTime());
        LiveView view = views.get(clusterId);
        if (view != null) {
            return view;
        }
        Boolean hasSettings = clusters.get(clusterId);
        if (hasSettings == null) {
            throw new NotFound("no cluster '" + clusterId + "' is registered");
        }
        if (!hasSettings) {
            throw new Conflict("cluster '" + clusterId + "' has no ledger settings yet: an admin PUTs "
                    + "them to /api/v1/admin/clusters/" + clusterId + "/ledger-settings");
        }
        throw new NotReady("the live ledger of cluster '" + clusterId
                + "' is being built from its stored facts; retry in a few seconds");
    }

    /** The latest view of every cluster with ledger settings. */
    public Map<String, LiveView> views() {
        return Map.copyOf(views);
    }

    /**
     * Starts looking every {@code fairledger.live.check-interval} on a thread of its own ({@code fairledger-live}):
     * Quarkus' scheduler runs a job at most once a second, so a fact stored after a quiet while (a late one, say) would
     * wait up to a second for its tick. The scheduler's first run starts the thread, as it ran the first look before
     * (a thread started at {@code StartupEvent} looks while the server is still starting); later runs find it started.
     * One look, and so one tick, at a time.
     */
    @Scheduled(every = "1s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void startLooking() {
        looks.start(config.live().checkInterval());
    }

    /** Lets a running tick finish and looks no more ({@link LookThread#stop}). */
    void stop(@Observes ShutdownEvent event) throws InterruptedException {
        looks.stop();
    }

    /**
     * Applies what was stored since the last tick, when a tick is due ({@link TickSchedule}): up to the horizon now,
     * in ticks that stop where a period closes ({@link TickHorizons}).
     */
    void check() {
        try {
            String next = cursor.horizon();
            // every storing transaction moves the horizon; before the first tick nothing counts as stored
            boolean stored = loaded && !next.equals(horizon);
            if (stored) {
                stores.incrementAndGet();
            }
            if (waits.asked() || schedule.due(stored, System.nanoTime())) {
                String to;
                do {
                    Map<String, long[]> spans = spans(next);
                    to = spans.isEmpty() ? next : TickHorizons.stop(horizon, next, spans, ledgers, closing);
                    tickTo(to, to.equals(next) ? spans : spans(to));
                } while (!to.equals(next));
            }
        } catch (SQLException | RuntimeException e) {
            LOG.warnf(e, "live ledgers: tick failed, retried at the next one");
        }
    }

    /** The span of event times of each cluster's facts stored since the last horizon, up to {@code to}. */
    private Map<String, long[]> spans(String to) throws SQLException {
        return horizon.equals(FactCursor.START) || horizon.equals(to)
                ? Map.of()
                : cursor.eventSpansByCluster(horizon, to);
    }

    /** One tick up to {@code next}: the ledgers, then the grants read, then the periods due. */
    private void tickTo(String next, Map<String, long[]> spans) throws SQLException {
        long allocatedBefore = ThreadAllocation.bytes();
        long number = waits.start();
        ticking = true;
        List<String> updated = new ArrayList<>();
        try {
            try {
                tick(next, number, updated, spans);
            } finally {
                waits.finish(number);
            }
            // after the waiters have their answer: a change waits for its view, not for its grants or the closing
            updated.forEach(this::computeGrants);
            updated.forEach(id -> closeDue(id, next));
        } finally {
            ticking = false;
            meters.allocated(ThreadAllocation.bytes() - allocatedBefore);
        }
    }

    /**
     * Applies what was stored before {@code next}, the fact cursor's horizon now; {@code number} counts the ticks, for
     * {@link #awaitServed}. Adds the clusters whose view changed to {@code updated}.
     */
    private void tick(String next, long number, List<String> updated, Map<String, long[]> spans)
            throws SQLException {
        // the facts this replica stored below the horizon: applied from memory, not read back
        FreshFacts.Taken taken = fresh.take(next);
        // before the first tick every ledger is built from its checkpoint and the facts after it
        // and when nothing was stored since the last tick (a settings change), no fact is new
        Map<String, Long> earliest = horizon.equals(FactCursor.START) || horizon.equals(next)
                ? Map.of()
                : earliestNew(taken, spans);
        boolean changed = false;
        for (RegisteredCluster cluster : tenancy.clusters()) {
            String id = cluster.id();
            clusters.put(id, cluster.hasLedgerSettings());
            if (!cluster.hasLedgerSettings()) {
                // its reads answer 409 from the clusters just put, as its configuration says
                waits.served(id, number);
            } else if (!quarantine.waits(id, () -> tenancy.configurationVersion(id), System.nanoTime())) {
                try {
                    if (update(id, earliest.get(id), next, taken)) {
                        changed = true;
                        updated.add(id);
                    }
                    waits.served(id, number);
                    quarantine.release(id);
                } catch (RuntimeException | OutOfMemoryError | StackOverflowError e) {
                    if (Quarantine.isDatabaseFailure(e)) {
                        // the database failed, not the cluster's state: readers keep the last view, the next tick
                        // builds the ledger again
                        ledgers.remove(id);
                        LOG.warnf("live ledger of cluster %s: update failed, rebuilt at the next tick: %s", id, e);
                        continue;
                    }
                    hold(id, e);
                    changed = true;
                }
            }
        }
        horizon = next;
        loaded = true;
        if (changed) {
            metrics.publishSoon(this::views, meters.timer(TickMeters.Phase.PUBLISH));
        }
    }

    /**
     * Brings one cluster's ledger up to date with the facts stored since the last horizon, the earliest of which is at
     * {@code earliestNew} (null when none came); true when its view changed. Facts all later than the ledger's last
     * applied one are streamed into it; an earlier one, or a settings change, rebuilds it ({@link BoundedReplays}).
     */
    private boolean update(String clusterId, Long earliestNew, String next, FreshFacts.Taken taken)
            throws SQLException {
        String version = tenancy.configurationVersion(clusterId);
        LiveLedger ledger = ledgers.get(clusterId);
        boolean sameConfiguration = ledger != null && version.equals(versions.get(clusterId));
        // a replica that just became the writer closes what was due meanwhile without waiting for a fact
        if (sameConfiguration && earliestNew == null && views.containsKey(clusterId) && !writer.tookOver(clusterId)) {
            return false;
        }
        long started = System.nanoTime();
        PassedCheckpoints passed = replays.passed(clusterId, () -> closing.closedUntil(clusterId));
        boolean late = earliestNew != null && ledger != null && ledger.refuses(earliestNew);
        if (!sameConfiguration && ledger != null && !late
                && ledger.continueUnder(inForce.settings(clusterId, version))) {
            // a change after the latest fact applied: the ledger goes on under it, nothing replayed
            versions.put(clusterId, version);
            sameConfiguration = true;
            meters.continued();
        }
        if (!sameConfiguration || late) {
            if (ledger != null) {
                meters.rebuilt();
            }
            ledger = replays.build(clusterId, inForce.settings(clusterId, version), next, passed);
            ledgers.put(clusterId, ledger);
            versions.put(clusterId, version);
            started = meters.record(TickMeters.Phase.REBUILD, started);
        } else if (earliestNew != null) {
            meters.applied(replays.advance(clusterId, ledger, horizon, next, taken, passed));
            started = meters.record(TickMeters.Phase.APPLY, started);
        }
        ledger.takeChanges();
        LiveView previous = views.put(clusterId, ledger.view(config.grants().interval().toMillis()));
        if (previous == null || previous.grantsRead()) {
            grantsRead.add(clusterId);
        } else {
            grantsRead.remove(clusterId);
        }
        started = meters.record(TickMeters.Phase.VIEW, started);
        // after the view, so the grants do not wait for the writes; before the closer, which may start from them
        passed.store();
        meters.record(TickMeters.Phase.STORE, started);
        return true;
    }

    /** The earliest event time of each cluster's new facts: the earlier of those {@code taken} and those stored. */
    private static Map<String, Long> earliestNew(FreshFacts.Taken taken, Map<String, long[]> stored) {
        Map<String, Long> earliest = new HashMap<>();
        stored.forEach((id, span) -> earliest.put(id, span[0]));
        taken.byCluster().keySet().forEach(id -> earliest.merge(id, taken.earliest(id), Math::min));
        return earliest;
    }

    /** The others go on, {@code clusterId}, whose state failed with {@code e}, answers 503 until it is rebuilt. */
    private void hold(String clusterId, Throwable e) {
        ledgers.remove(clusterId);
        views.remove(clusterId);
        quarantine.hold(clusterId, tenancy.configurationVersion(clusterId), e, System.nanoTime());
    }

    /**
     * Computes the grants of the view the tick published for {@code clusterId} when those of the view before were read
     * (a resource manager polls them; else they are computed when first read, {@link LiveView}): grants that cannot be
     * computed quarantine the cluster as a failed update does.
     */
    private void computeGrants(String clusterId) {
        try {
            if (grantsRead.contains(clusterId)) {
                find(clusterId).ifPresent(LiveView::computeGrants);
            }
        } catch (RuntimeException | StackOverflowError e) {
            hold(clusterId, e);
            metrics.publishSoon(this::views, meters.timer(TickMeters.Phase.PUBLISH));
        }
    }

    /** Closes the periods of {@code clusterId} due by its ledger's watermark, after its update in the tick. */
    private void closeDue(String clusterId, String next) {
        LiveLedger ledger = ledgers.get(clusterId);
        if (ledger == null) {
            return;
        }
        long started = System.nanoTime();
        try {
            closing.closeDue(clusterId, ledger.watermark(), next, ledger::stated);
            if (ledger.holdsEnded()) {
                // the closed periods are read from PostgreSQL: the ledger keeps only those not stored yet
                ledger.release(closing.closedUntil(clusterId));
            }
        } catch (RuntimeException e) {
            // the ledger stands; the next tick with a new fact tries to close again
            LOG.warnf(e, "cluster %s: closing periods failed, retried at its next fact", clusterId);
        } finally {
            meters.record(TickMeters.Phase.CLOSE, started);
        }
    }

    /** Sets the tick's schedule and registers its meters. */
    @PostConstruct
    void init() {
        schedule = new TickSchedule(config.live().pollInterval().toNanos(), System.nanoTime());
        meters = new TickMeters(registry);
    }

    /**
     * Waits, at most {@code bound}, for a tick that started after the call ({@link TickWaits}); whether it served
     * {@code clusterId} (not when its update failed or it waits in quarantine).
     */
    @Override
    public boolean awaitServed(String clusterId, Duration bound) throws InterruptedException {
        return waits.await(clusterId, bound);
    }

    /** The ended periods of the latest view; none before the cluster's first view (right after start-up). */
    @Override
    public List<Statement> ended(String clusterId) {
        LiveView view = views.get(clusterId);
        return view == null ? List.of() : view.ended();
    }

    /** How many looks have found something stored since the last tick, so far. */
    long stores() {
        return stores.get();
    }

    /** Whether a tick is running now. */
    boolean ticking() {
        return ticking;
    }

    /** Whether the live ledgers have been loaded from the stored facts (readiness, {@link ServingReadiness}). */
    boolean loaded() {
        return loaded;
    }

    /** The view of {@code clusterId} if it has one yet (for metrics and tests). */
    public Optional<LiveView> find(String clusterId) {
        return Optional.ofNullable(views.get(clusterId));
    }
}
