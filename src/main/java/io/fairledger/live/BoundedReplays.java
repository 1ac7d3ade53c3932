package io.fairledger.live;

import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.Startup;
import org.jboss.logging.Logger;

import io.fairledger.accounting.StoredLedgerStates;
import io.fairledger.config.FairledgerConfig;
import io.fairledger.facts.FactCursor;
import io.fairledger.facts.FreshFacts;
import io.fairledger.facts.LedgerFact;
import io.fairledger.facts.RetentionFloors;
import io.fairledger.tenancy.LedgerSettings;

/**
 * Builds a cluster's live ledger from its newest usable checkpoint and the facts after it, instead of from every stored
 * fact, and stores checkpoints as the ledger moves (docs/architecture.md, "Checkpoints").
 * <p>
 * A checkpoint made at horizon {@code H} holds every fact up to its event time {@code L} stored before {@code H}. It is
 * usable under the live settings' version when no fact stored at or after {@code H} is at or before {@code L}: then it
 * plus the facts after {@code L} are every stored fact. A late fact makes every checkpoint at or after its event time
 * unusable; those are deleted when found, so a late fact rebuilds from the newest checkpoint before it. The facts after
 * the checkpoint are streamed in event-time order through the fact cursor and applied one instant at a time.
 * <p>
 * A checkpoint is stored at each period's end (before the first fact after it), after
 * {@code fairledger.live.checkpoint.every-facts} facts, and after {@code fairledger.live.checkpoint.every} when facts
 * came meanwhile; the {@code keep} newest are kept, and the newest of each of the {@code periods} latest periods (the
 * one at its end, once it ended), so a what-if over a recent period, or the period closer, starts near its window. A
 * what-if starts from the same checkpoints ({@link StoredLedgerStates}). The checkpoints one update passes are encoded
 * as it passes them and stored once the caller has published the updated view ({@link PassedCheckpoints}).
 * <p>
 * Once retention has dropped facts of a cluster ({@link RetentionFloors}), its ledger is never built from the
 * registration: only from a checkpoint at or after the pinned one, which holds the dropped facts' effect. Facts before
 * the floor stored since (none should be: the consumer refuses them) are not counted and do not make that checkpoint
 * unusable. When no such checkpoint is usable under the live settings, building fails, naming why. A checkpoint is
 * stored under the version of the settings known at its instant ({@link CheckpointSegment}), so one from before a
 * settings change still serves after it: the ledger continues from it under the change.
 */
@Startup // created at start, so settings checkSettings refuses stop the server then, not at a later tick
@ApplicationScoped
public class BoundedReplays implements StoredLedgerStates {

    private static final Logger LOG = Logger.getLogger(BoundedReplays.class);

    /**
     * How a ledger was last built: the checkpoint it started {@code from} (empty: the registration) and the facts
     * applied after it.
     */
    public record Rebuild(Optional<LedgerCheckpoints.Stored> from, long factsReplayed) {
    }

    /** When a ledger was last checkpointed: its fact count and the wall clock. */
    private record Mark(long facts, long wallMs) {
    }

    @Inject
    FactCursor cursor;

    @Inject
    LedgerCheckpoints checkpoints;

    @Inject
    FairledgerConfig config;

    @Inject
    RetentionFloors floors;

    @Inject
    MeterRegistry registry;

    /**
     * The most bytes of encoded checkpoints an update holds before it stores them ({@link PassedCheckpoints}): about
     * 45 checkpoints of a ledger of 1,000 tenants (0.7 MB each), a small part of the launcher's 512 MB heap.
     */
    static final long PASSED_BYTES = 32L << 20;

    private Timer checkpointTimer;
    private Timer encodeTimer;
    private Timer restoreTimer;
    private Timer queryTimer;

    private final Map<String, Rebuild> rebuilds = new ConcurrentHashMap<>();
    private final Map<String, Mark> marks = new ConcurrentHashMap<>();

    /** Refuses settings that would store no checkpoint or keep none, naming the key. */
    @PostConstruct
    void checkSettings() {
        FairledgerConfig.Live.Checkpoint every = config.live().checkpoint();
        if (every.everyFacts() < 1 || every.keep() < 1 || every.every().isNegative() || every.every().isZero()) {
            throw new IllegalStateException("fairledger.live.checkpoint.every-facts and .keep must be >= 1 and .every "
                    + "> 0, got " + every.everyFacts() + ", " + every.keep() + " and " + every.every());
        }
        if (every.periods() < 0) {
            throw new IllegalStateException("fairledger.live.checkpoint.periods must be >= 0, got " + every.periods());
        }
        checkpointTimer = LedgerMetrics.tickTimer(registry, "checkpoint");
        encodeTimer = LedgerMetrics.tickTimer(registry, "encode");
        restoreTimer = LedgerMetrics.tickTimer(registry, "restore");
        queryTimer = LedgerMetrics.tickTimer(registry, "query");
    }

    /** The ledger of {@code clusterId} holding every fact stored before {@code horizon}, its checkpoints stored. */
    public LiveLedger build(String clusterId, LedgerSettings settings, String horizon) throws SQLException {
        PassedCheckpoints passed = passed(clusterId);
        LiveLedger ledger = build(clusterId, settings, horizon, passed);
        passed.store();
        return ledger;
    }

    /**
     * The ledger of {@code clusterId} holding every fact stored before {@code horizon}; the checkpoints it passed are
     * encoded into {@code passed}, for the caller to store once it has published the ledger's view
     * ({@link PassedCheckpoints#store}).
     */
    public LiveLedger build(String clusterId, LedgerSettings settings, String horizon, PassedCheckpoints passed)
            throws SQLException {
        Optional<RetentionFloors.Floor> floor = floors.of(clusterId);
        long started = System.nanoTime();
        Optional<Restored> restored = restoreNewest(clusterId, settings, Long.MAX_VALUE, horizon);
        restoreTimer.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        if (floor.isPresent() && restored.map(r -> r.from().eventTimeMs() < floor.get().checkpointMs()).orElse(true)) {
            throw new IllegalStateException("the ledger of cluster " + clusterId + " cannot be built: its facts before "
                    + floor.get().replayableFrom()
                    + " were dropped by retention and no usable checkpoint from there on "
                    + "is stored under its settings (the pinned one is under settings version "
                    + floor.get().settingsVersion() + ", the live settings there are version "
                    + LiveLedger.settingsVersion(clusterId, settings, floor.get().checkpointMs()) + ")");
        }
        LiveLedger ledger = restored.map(Restored::ledger).orElseGet(() -> new LiveLedger(clusterId, settings,
                List.of()));
        LedgerCheckpoints.Stored used = restored.map(Restored::from).orElse(null);
        marks.put(clusterId, mark(ledger));
        long before = ledger.facts();
        long from = ledger.lastApplied() == Long.MIN_VALUE ? Long.MIN_VALUE : ledger.lastApplied() + 1;
        Instants instants = new Instants(clusterId, ledger, horizon, passed);
        long querying = System.nanoTime();
        cursor.forEachSince(clusterId, from, horizon, fact -> {
            if (instants.instant.isEmpty() && ledger.facts() == before) {
                queryTimer.record(System.nanoTime() - querying, TimeUnit.NANOSECONDS);
            }
            instants.add(fact);
        });
        instants.flush();
        rebuilds.put(clusterId, new Rebuild(Optional.ofNullable(used), ledger.facts() - before));
        return ledger;
    }

    /**
     * Applies to {@code ledger}, which holds every fact of {@code clusterId} stored before {@code from}, the facts
     * stored in {@code [from, to)}: those {@code taken} from memory ({@link FreshFacts}) merged with the others, read
     * from PostgreSQL, in event-time order one instant at a time (never all held), storing checkpoints as they fall
     * due ({@link FreshFacts.Taken#merge}); returns how many were applied from each. Every one of those facts must be
     * later than the ledger's last applied one (else it must be rebuilt, {@link #build}); one that is not fails the
     * call, and the ledger, partly advanced, must then be dropped. The checkpoints it passed are encoded into
     * {@code passed}, for the caller to store once it has published the ledger's view
     * ({@link PassedCheckpoints#store}).
     */
    public FreshFacts.Merged advance(String clusterId, LiveLedger ledger, String from, String to,
            FreshFacts.Taken taken, PassedCheckpoints passed) throws SQLException {
        Instants instants = new Instants(clusterId, ledger, to, passed);
        FreshFacts.Merged merged = taken.merge(clusterId,
                sink -> cursor.forEachStored(clusterId, from, to, taken, sink), instants::add);
        instants.flush();
        return merged;
    }

    /** Gathers facts read in event-time order into instants and applies each when the next begins. */
    private final class Instants {
        private final String clusterId;
        private final LiveLedger ledger;
        private final String horizon;
        private final PassedCheckpoints passed;
        private final List<LedgerFact> instant = new ArrayList<>();

        Instants(String clusterId, LiveLedger ledger, String horizon, PassedCheckpoints passed) {
            this.clusterId = clusterId;
            this.ledger = ledger;
            this.horizon = horizon;
            this.passed = passed;
        }

        void add(LedgerFact fact) {
            if (!instant.isEmpty() && instant.get(0).at() != fact.at()) {
                flush();
            }
            instant.add(fact);
        }

        void flush() {
            apply(clusterId, ledger, instant, horizon, passed);
        }
    }

    /** A ledger restored from a stored checkpoint. */
    private record Restored(LiveLedger ledger, LedgerCheckpoints.Stored from) {
    }

    /**
     * The ledger of the newest usable checkpoint of {@code clusterId} under {@code settings} made at or before
     * {@code atMs} (event time), deleting each one looked at on the way that is unusable: it lacks a fact stored
     * since it was made, or cannot be read.
     */
    private Optional<Restored> restoreNewest(String clusterId, LedgerSettings settings, long atMs, String horizon)
            throws SQLException {
        long floorMs = floors.of(clusterId).map(f -> f.replayableFrom().toEpochMilli()).orElse(Long.MIN_VALUE);
        List<CheckpointSegment> segments = CheckpointSegment.of(clusterId, settings);
        for (int i = segments.size() - 1; i >= 0; i--) {
            CheckpointSegment s = segments.get(i);
            if (s.fromMs() > atMs) {
                continue;
            }
            for (LedgerCheckpoints.Stored c : checkpoints.newestFirst(clusterId, s.version(), horizon)) {
                if (c.eventTimeMs() > atMs || !s.holds(c)) {
                    continue;
                }
                Long lacking = cursor.earliestStored(clusterId, floorMs, c.horizon(), horizon);
                if (lacking != null && lacking <= c.eventTimeMs()) {
                    checkpoints.delete(clusterId, s.version(), c);
                    continue;
                }
                byte[] state = checkpoints.state(clusterId, s.version(), c);
                if (state == null) {
                    continue;
                }
                try {
                    return Optional.of(new Restored(LiveLedger.restore(clusterId, settings, state), c));
                } catch (IllegalArgumentException e) {
                    LOG.warnf("checkpoint of cluster %s at %d not used: %s", clusterId, c.eventTimeMs(),
                            e.getMessage());
                    checkpoints.delete(clusterId, s.version(), c);
                }
            }
        }
        return Optional.empty();
    }

    /** A what-if's start: the newest usable checkpoint at or before {@code atMs}, restored. */
    @Override
    public Optional<State> newestAtOrBefore(String clusterId, LedgerSettings settings, long atMs, String horizon)
            throws SQLException {
        return restoreNewest(clusterId, settings, atMs, horizon).map(Restored::ledger)
                .map(l -> new State(l.replay(), l.feed(), l.lastApplied(), l.facts()));
    }

    /**
     * Applies the facts of one instant, taking a checkpoint first when they close the open period
     * ({@link #checkpointAtClose}), and after them when one is due; the checkpoints go into {@code passed}.
     */
    private void apply(String clusterId, LiveLedger ledger, List<LedgerFact> instant, String horizon,
            PassedCheckpoints passed) {
        if (instant.isEmpty()) {
            return;
        }
        if (instant.get(0).at() >= ledger.openPeriodEnd()) {
            checkpointAtClose(ledger, horizon, passed);
        }
        if (!ledger.offer(instant)) {
            throw new IllegalStateException("facts read in event-time order came out of order for " + clusterId);
        }
        instant.clear();
        checkpointIfDue(ledger, horizon, passed);
    }

    /**
     * Stores a checkpoint of {@code ledger} at the end of its open period, before the first fact after it, unless the
     * last one is this state: kept {@code fairledger.live.checkpoint.periods} periods back ({@link
     * LedgerCheckpoints#save}), a what-if, a period close or a settings change from that end start there.
     */
    private void checkpointAtClose(LiveLedger ledger, String horizon, PassedCheckpoints passed) {
        Mark last = marks.get(passed.clusterId());
        if (ledger.facts() > 0 && (last == null || ledger.facts() > last.facts())) {
            passed.take(ledger, horizon);
        }
    }

    /**
     * Stores a checkpoint of {@code ledger}, which holds every fact stored before {@code horizon}, when one is due:
     * enough facts or time passed since the last one (a period's end is checkpointed before the instant that closes
     * it, {@link #checkpointAtClose}).
     */
    private void checkpointIfDue(LiveLedger ledger, String horizon, PassedCheckpoints passed) {
        Mark last = marks.get(passed.clusterId());
        FairledgerConfig.Live.Checkpoint every = config.live().checkpoint();
        long newFacts = last == null ? ledger.facts() : ledger.facts() - last.facts();
        boolean due = last == null
                ? ledger.facts() > 0
                : newFacts > 0 && (newFacts >= every.everyFacts()
                        || System.currentTimeMillis() - last.wallMs() >= every.every().toMillis());
        if (due) {
            passed.take(ledger, horizon);
        }
    }

    /**
     * Holds the checkpoints one update of {@code clusterId}'s ledger passes ({@link #build}, {@link #advance}), the
     * ledger releasing no statement before them.
     */
    public PassedCheckpoints passed(String clusterId) {
        return passed(clusterId, () -> null);
    }

    /**
     * Holds the checkpoints one update of {@code clusterId}'s ledger passes, each taken after the ledger released the
     * statements of the periods ending at or before {@code closedUntil} (asked once, at the first checkpoint): the
     * closed ones, which the period closer stored ({@link LiveLedger#release}).
     */
    public PassedCheckpoints passed(String clusterId, Supplier<Instant> closedUntil) {
        return new PassedCheckpoints(this, clusterId, closedUntil);
    }

    /** Encodes a checkpoint of {@code ledger} ({@link PassedCheckpoints#take}). */
    byte[] encode(String clusterId, LiveLedger ledger) {
        long started = System.nanoTime();
        byte[] state = ledger.checkpoint();
        encodeTimer.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        marks.put(clusterId, mark(ledger));
        return state;
    }

    /** Stores a checkpoint taken ({@link PassedCheckpoints#store}); one that cannot be is logged. */
    void save(String clusterId, PassedCheckpoints.Taken t) {
        FairledgerConfig.Live.Checkpoint every = config.live().checkpoint();
        long started = System.nanoTime();
        try {
            checkpoints.save(clusterId, t.version(), t.stored(), t.openPeriod(), t.state(), every.keep(),
                    every.periods());
        } catch (SQLException | RuntimeException e) {
            // the ledger is right either way; a checkpoint at its next fact takes the place of this one
            marks.remove(clusterId);
            LOG.warnf(e, "checkpoint of cluster %s at %d not stored", clusterId, t.stored().eventTimeMs());
        } finally {
            checkpointTimer.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        }
    }

    private static Mark mark(LiveLedger ledger) {
        return new Mark(ledger.facts(), System.currentTimeMillis());
    }

    /**
     * The oldest usable checkpoint of {@code clusterId} under {@code settings} holding every fact before
     * {@code untilMs} (its event time at or after {@code untilMs - 1}), made at or before {@code horizon}: the one
     * retention pins before it drops the facts before {@code untilMs}. Empty when there is none.
     */
    public Optional<LedgerCheckpoints.Stored> oldestUsableHolding(String clusterId, LedgerSettings settings,
            long untilMs, String horizon) throws SQLException {
        long floorMs = floors.of(clusterId).map(f -> f.replayableFrom().toEpochMilli()).orElse(Long.MIN_VALUE);
        for (CheckpointSegment s : CheckpointSegment.of(clusterId, settings)) {
            if (s.untilMs() < untilMs) {
                continue;
            }
            List<LedgerCheckpoints.Stored> newestFirst = checkpoints.newestFirst(clusterId, s.version(), horizon);
            for (int i = newestFirst.size() - 1; i >= 0; i--) {
                LedgerCheckpoints.Stored c = newestFirst.get(i);
                if (c.eventTimeMs() < untilMs - 1 || !s.holds(c)) {
                    continue;
                }
                Long lacking = cursor.earliestStored(clusterId, floorMs, c.horizon(), horizon);
                if (lacking == null || lacking > c.eventTimeMs()) {
                    return Optional.of(c);
                }
            }
        }
        return Optional.empty();
    }

    /** How the ledger of {@code clusterId} was last built, if it was (for tests and operators). */
    public Optional<Rebuild> lastRebuild(String clusterId) {
        return Optional.ofNullable(rebuilds.get(clusterId));
    }
}
