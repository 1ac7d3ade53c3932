package io.fairledger.core.replay;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import io.fairledger.core.chargeback.Chargeback;
import io.fairledger.core.chargeback.Period;
import io.fairledger.core.chargeback.Statement;
import io.fairledger.core.chargeback.StatementToDate;
import io.fairledger.core.fairness.FairnessReport;
import io.fairledger.core.ledger.ClusterLedger;
import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.ledger.Outcome;
import io.fairledger.core.ledger.TenantAccount;
import io.fairledger.core.model.ClusterConfig;
import io.fairledger.core.model.MemoryMode;
import io.fairledger.core.model.TenantConfig;
import io.fairledger.core.model.TenantPath;

/**
 * The one deterministic replay from events plus configuration to ledger and statements, shared by the server (start-up
 * and late events), the offline {@code account} command and the simulator.
 *
 * <p>
 * Events are put in {@link CanonicalOrder}, so simultaneous events in any order give the same result. Events of
 * another cluster are counted and skipped. Periods are closed at their boundaries before any event at the boundary
 * instant is applied; a period ending at or before {@link ReplayConfig#until()} is closed and stated.
 *
 * <p>
 * Late events: the live ledger rejects an event older than its clock. The caller re-runs {@link #run} with the full
 * event list including it; {@link io.fairledger.core.chargeback.LateAdjustments} turns each changed closed period
 * into adjustment lines for the next statement to close, naming the corrected period.
 */
public final class Replay {

    private final ReplayConfig config;
    private final ClusterLedger ledger;
    private final List<Statement> statements = new ArrayList<>();
    private final List<FairnessReport> fairness = new ArrayList<>();
    /** How many periods this replay has closed, those released included. */
    private long closedPeriods;
    /** The statements of the periods ending at or before this instant are not kept ({@link #release}). */
    private long releasedThrough = Long.MIN_VALUE;
    private Period open;

    /** An empty replay under {@code config}, ready for {@link #advance}: the live ledger of one cluster. */
    public Replay(ReplayConfig config) {
        this.config = config;
        this.ledger = new ClusterLedger(config.cluster());
        this.open = config.periods().periodOf(config.cluster().registeredAt());
    }

    /**
     * A replay restored from a {@link Checkpoint}: the ledger, the number of closed periods, the statements kept of the
     * last of them and the open period. It keeps every statement it closes from now on until {@link #release}d.
     */
    Replay(ReplayConfig config, ClusterLedger ledger, long closedPeriods, List<Statement> statements,
            List<FairnessReport> fairness, Period open) {
        if (statements.size() > closedPeriods || statements.size() != fairness.size()) {
            throw new IllegalArgumentException(statements.size() + " statements and " + fairness.size()
                    + " fairness reports kept of " + closedPeriods + " closed periods");
        }
        this.config = config;
        this.ledger = ledger;
        this.closedPeriods = closedPeriods;
        this.statements.addAll(statements);
        this.fairness.addAll(fairness);
        this.open = open;
    }

    /** Replays {@code events} (any order) under {@code config}. */
    public static ReplayResult run(ReplayConfig config, List<LedgerEvent> events) {
        List<LedgerEvent> ordered = new ArrayList<>(events);
        ordered.sort(CanonicalOrder.COMPARATOR);
        Replay replay = new Replay(config);
        for (LedgerEvent e : ordered) {
            if (e.at() > config.until()) {
                break;
            }
            replay.apply(e);
        }
        replay.closeUntil(config.until());
        return replay.result(config.until());
    }

    /**
     * Applies one event, closing every period that ends at or before it first. Events must come in
     * {@link CanonicalOrder}; an event before the ledger's clock is refused by the ledger (its outcome says so).
     */
    public Outcome apply(LedgerEvent e) {
        closeUntil(e.at());
        return ledger.apply(e);
    }

    /**
     * Closes and states every period that ends at or before {@code t}.
     *
     * @throws TooManyPeriods
     *             before closing any when this replay would then hold more than {@link PeriodSchedule#MAX_PERIODS}
     */
    public void closeUntil(long t) {
        for (ReplayConfig.Change c : config.changes()) {
            if (c.at() > ledger.clock() && c.at() <= t) {
                closePeriodsUntil(c.at());
                ledger.reconfigure(c.at(), c.cluster());
            }
        }
        closePeriodsUntil(t);
    }

    /** {@link #closeUntil} of the periods alone. */
    private void closePeriodsUntil(long t) {
        if (t >= open.end()) {
            long asked = closedPeriods + 1 + config.periods().endingBetween(open.end(), t);
            if (asked > PeriodSchedule.MAX_PERIODS) {
                throw new TooManyPeriods(asked, config.periods().nominalMs());
            }
        }
        while (t >= open.end()) {
            List<TenantAccount> accounts = ledger.closePeriod(open.end());
            closedPeriods++;
            if (open.end() > releasedThrough) {
                statements.add(Chargeback.statement(config.cluster().clusterId(), open, accounts,
                        config.chargebackAt(open.end() - 1), config.periods().proration(open)));
                fairness.add(FairnessReport.ofPeriod(Chargeback.leaves(accounts)));
            }
            open = config.periods().periodOf(open.end());
        }
    }

    /**
     * Whether replays under {@code a} and {@code b} hold the same ledger for the same events: the configurations differ
     * at most in pricing (the chargeback model, price plans, cost per period, currency scale) and their end. The
     * ledger never reads prices (a {@link ClusterLedger} is built from the cluster's configuration alone); they are
     * applied only when a period is stated ({@link #closeUntil}, {@link #openStatement}).
     */
    public static boolean sameLedger(ReplayConfig a, ReplayConfig b) {
        ReplayConfig bPricedAsA = new ReplayConfig(b.cluster(), b.periods(), a.chargeback(), b.until());
        return Checkpoint.settingsVersion(bPricedAsA).equals(Checkpoint.settingsVersion(a));
    }

    /**
     * This replay continuing under {@code variant}, priced as it says: the periods closed from now on are stated under
     * the variant's prices, the statements already closed keep theirs. The two share the ledger, so this replay must
     * not be used afterwards.
     *
     * @throws IllegalArgumentException
     *             when {@code variant} would hold another ledger ({@link #sameLedger})
     */
    public Replay repriced(ReplayConfig variant) {
        if (!sameLedger(config, variant)) {
            throw new IllegalArgumentException("a replay can be repriced only: the variant changes more than the "
                    + "chargeback settings");
        }
        return continued(variant, ledger);
    }

    /**
     * Whether this replay may go on under {@code variant} ({@link #continuedUnder}): the two say the same up to the
     * ledger's clock ({@link #sameUpTo}), so they differ only in changes taking
     * effect after it; or both change at the clock itself, where the ledger took this replay's change
     * ({@link #takeChanges}) and no event since, and say the same before it (a second change made before any new fact).
     * {@code lastEventAt} is the instant of the latest event applied, which the caller keeps (a checkpoint does not).
     */
    public boolean continuesUnder(ReplayConfig variant, long lastEventAt) {
        return sameUpTo(config, variant, ledger.clock()) || replacesChangeAtClock(variant, lastEventAt);
    }

    /** Whether {@code variant} differs from this replay's configuration only by another change at the ledger's clock. */
    private boolean replacesChangeAtClock(ReplayConfig variant, long lastEventAt) {
        long clock = ledger.clock();
        return lastEventAt < clock && changesAt(config, clock) && changesAt(variant, clock)
                && sameUpTo(config, variant, clock - 1)
                && hasEveryPath(variant.clusterAt(clock), config.clusterAt(clock));
    }

    /** Whether {@code cluster} has every tenant {@code other} has: at once when {@code other}'s come first, in order. */
    private static boolean hasEveryPath(ClusterConfig cluster, ClusterConfig other) {
        List<TenantConfig> all = cluster.tenants();
        List<TenantConfig> some = other.tenants();
        int same = 0;
        while (same < some.size() && same < all.size() && all.get(same).path().equals(some.get(same).path())) {
            same++;
        }
        return same == some.size() || paths(cluster).containsAll(paths(other));
    }

    /**
     * Whether {@code a} and {@code b} say the same up to {@code t}, as values (a configuration is records all through:
     * tenants, prices, schedule). Stricter than their settings versions ({@link Checkpoint#settingsVersion}), which it
     * replaces here because it costs nothing when they differ early: a price written with another scale differs, and
     * the replay is then built again rather than continued, as it would be for any change.
     */
    private static boolean sameUpTo(ReplayConfig a, ReplayConfig b, long t) {
        return a.upTo(t).equals(b.upTo(t));
    }

    /** The tenants {@code cluster} names (a ledger never drops one it made). */
    private static Set<TenantPath> paths(ClusterConfig cluster) {
        Set<TenantPath> out = new HashSet<>();
        cluster.tenants().forEach(t -> out.add(t.path()));
        return out;
    }

    /** Whether the last change {@code config} knows at {@code t} is at {@code t}. */
    private static boolean changesAt(ReplayConfig config, long t) {
        List<ReplayConfig.Change> known = config.upTo(t).changes();
        return !known.isEmpty() && known.get(known.size() - 1).at() == t;
    }

    /**
     * This replay going on under {@code variant}, which adds or replaces settings changes after the ledger's clock (a
     * change made now, docs/domain.md "Settings changes are prospective"): the events from here on give exactly the
     * replay of every event under {@code variant}, with no event replayed. The two share the ledger, so this replay
     * must not be used afterwards. Cost: comparing the configurations once, nothing per event or tenant account.
     * Empty, changing nothing, when {@code variant} differs at or before the clock ({@link #continuesUnder}): the
     * replay must then start again from an earlier state.
     */
    public Optional<Replay> continuedUnder(ReplayConfig variant, long lastEventAt) {
        long clock = ledger.clock();
        if (!sameUpTo(config, variant, clock)) {
            if (!replacesChangeAtClock(variant, lastEventAt)) {
                return Optional.empty();
            }
            // the change at the clock replaced: the ledger takes the new one there instead, as a replay would
            ledger.reconfigure(clock, variant.clusterAt(clock));
        }
        return Optional.of(continued(variant, ledger));
    }

    /**
     * Takes every settings change of the configuration at once, closing the periods before it: the ledger's clock moves
     * to the last change's instant when that is later. A replay of the same events that then meets an event at or
     * after that instant takes the changes there too ({@link #closeUntil}), so this only makes them visible sooner;
     * an event before the new clock is refused by the ledger, as any late one.
     */
    public void takeChanges() {
        List<ReplayConfig.Change> changes = config.changes();
        if (!changes.isEmpty() && changes.get(changes.size() - 1).at() > ledger.clock()) {
            closeUntil(changes.get(changes.size() - 1).at());
        }
    }

    /** A replay under {@code config} over {@code ledger}, holding what this one holds of the closed periods. */
    private Replay continued(ReplayConfig config, ClusterLedger ledger) {
        Replay out = new Replay(config, ledger, closedPeriods, statements, fairness, open);
        out.releasedThrough = releasedThrough;
        return out;
    }

    /**
     * Where a replay under {@code variant} may take over from one under {@code live} for the periods ending after
     * {@code from}: the start {@code R} of the round containing the start of the period containing {@code from}, when
     * the two run under ROUNDS and differ only in tenant weights, discount rates and prices
     * ({@link ClusterLedger#sameButWeights}) and {@code R} is after the registration; empty otherwise (then only the
     * registration will do). Every period ending after {@code from} starts at or after {@code R}, so none of them
     * holds integrals from before the variant took over ({@link #reweightedAt}).
     */
    public static OptionalLong reweightStart(ReplayConfig live, ReplayConfig variant, long from) {
        if (!(live.cluster().memory() instanceof MemoryMode.Rounds rounds)
                || !live.periods().equals(variant.periods())
                || !ClusterLedger.sameButWeights(live.cluster(), variant.cluster())) {
            return OptionalLong.empty();
        }
        long periodStart = live.periods().periodOf(from).start();
        long roundStart = rounds.startOf(rounds.roundOf(periodStart));
        return roundStart > live.cluster().registeredAt() ? OptionalLong.of(roundStart) : OptionalLong.empty();
    }

    /**
     * This replay, which has applied every event before {@code roundStart} and none at or after it, continued from the
     * round start {@code roundStart} under {@code variant} (other tenant weights, discount rates or prices): the
     * periods ending by {@code roundStart} are closed under this replay's settings, the ledger enters the round and is
     * rebuilt under the variant's weights and discount rates ({@link ClusterLedger#reweighted}, which says what survives
     * a round boundary and why). The events from {@code roundStart} on then give, for every period starting at or
     * after {@code roundStart}, exactly the statement and fairness of the replay of every event under {@code variant}.
     * The continued replay shares nothing with this one, which is left at {@code roundStart} with those periods closed.
     *
     * @throws IllegalArgumentException
     *             when the ledger's clock is at or after {@code roundStart} (events at it may have been applied), when
     *             {@code roundStart} is not a round start, or when the variant differs in more than weights, discount
     *             rates and prices
     */
    public Replay reweightedAt(long roundStart, ReplayConfig variant) {
        if (!config.periods().equals(variant.periods())) {
            throw new IllegalArgumentException("a replay can be continued from a round start with other weights only "
                    + "under the same periods");
        }
        if (ledger.clock() >= roundStart) {
            throw new IllegalArgumentException("the ledger clock " + ledger.clock() + " is not before the round start "
                    + roundStart);
        }
        closeUntil(roundStart);
        ledger.advanceTo(roundStart);
        return continued(variant, ledger.reweighted(variant.cluster()));
    }

    /** The configuration this replay runs under. */
    public ReplayConfig config() {
        return config;
    }

    /**
     * Drops the statements and fairness of the closed periods ending at or before {@code throughMs}, and keeps none of
     * those it closes later that end by then: the server's live ledger calls it once the period closer has stored them
     * (docs/architecture.md, "Checkpoints"), so that it holds, and its {@link Checkpoint} carries, only the periods
     * ended and not stored yet. {@code fairledger account}, the simulator and the what-ifs never call it: they keep
     * every statement. Never moves back.
     */
    public void release(long throughMs) {
        releasedThrough = Math.max(releasedThrough, throughMs);
        int dropped = 0;
        while (dropped < statements.size() && statements.get(dropped).period().end() <= releasedThrough) {
            dropped++;
        }
        statements.subList(0, dropped).clear();
        fairness.subList(0, dropped).clear();
    }

    /** How many periods this replay has closed, the released ones included (for {@link Checkpoint}). */
    long closedPeriods() {
        return closedPeriods;
    }

    /**
     * Whether this replay holds the statement of every period it has closed that ends at or after {@code endMs}: true
     * unless a period ending there or later was {@link #release}d (then a caller that needs it must start from an
     * earlier state).
     */
    public boolean holdsClosedFrom(long endMs) {
        if (statements.size() == closedPeriods) {
            return true;
        }
        long heldFrom = statements.isEmpty() ? open.start() : statements.get(0).period().start();
        return endMs > heldFrom;
    }

    /** The statements of the closed periods held, in order, as they were closed (for {@link Checkpoint}). */
    List<Statement> closedStatements() {
        return statements;
    }

    /** The fairness of the closed periods, parallel to {@link #closedStatements()} (for {@link Checkpoint}). */
    List<FairnessReport> closedFairness() {
        return fairness;
    }

    /** The ledger as it stands (its clock is the last event's instant or period boundary). */
    public ClusterLedger ledger() {
        return ledger;
    }

    /**
     * The statements of the periods closed so far and not {@link #release}d, in order (unmodifiable, a snapshot): every
     * closed period when nothing was released.
     */
    public List<Statement> statements() {
        return List.copyOf(statements);
    }

    /** The period not yet closed. */
    public Period openPeriod() {
        return open;
    }

    /** The open period's statement so far: what the bill would be if the period ended at {@code at}. */
    public Statement openStatement(long at) {
        return openStatement(at, ledger.accounts(at)).whole();
    }

    /**
     * {@link #openStatement(long)} from {@code accounts}, the ledger's at {@code at}, computed when asked: it holds what
     * it needs of this replay as it is now, so the replay may go on meanwhile (a live view computes its statement, or
     * the lines it is asked for, when read, not at every event).
     */
    public StatementToDate openStatement(long at, List<TenantAccount> accounts) {
        Period soFar = new Period(open.id(), open.start(), Math.max(open.start() + 1, at));
        return new StatementToDate(config.cluster().clusterId(), soFar, accounts, config.chargebackAt(ledger.clock()),
                config.periods().proration(open));
    }

    /** The statements closed so far (those not released) and every account at {@code at}. */
    public ReplayResult result(long at) {
        return new ReplayResult(ledger, statements, fairness, ledger.accounts(at), ledger.ignoredEvents());
    }
}
