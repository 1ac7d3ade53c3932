package io.fairledger.live;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.fairledger.accounting.LedgerFeed;
import io.fairledger.core.chargeback.Statement;
import io.fairledger.core.grant.GrantPolicy;
import io.fairledger.core.grant.LongTermMaxMin;
import io.fairledger.core.grant.TreeGrants;
import io.fairledger.core.ledger.AccountTable;
import io.fairledger.core.model.MemoryUnits;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantConfig;
import io.fairledger.core.replay.Checkpoint;
import io.fairledger.core.replay.Replay;
import io.fairledger.core.replay.ReplayConfig;
import io.fairledger.facts.LedgerFact;
import io.fairledger.tenancy.LedgerSettings;

/**
 * One cluster's ledger kept up to date as facts are stored: the core's {@link Replay} fed through a {@link LedgerFeed},
 * exactly as {@code fairledger account} and the statements replay them. Facts later than every fact applied so far are
 * applied in place; a fact at or before the last applied instant cannot be (the ledger only moves forward), so the
 * caller rebuilds the ledger from a checkpoint and the stored facts after it ({@link BoundedReplays}): the result
 * always equals a full replay of the facts stored so far.
 * Not thread-safe: {@link LiveLedgers} serialises updates and publishes immutable {@link LiveView}s.
 * <p>
 * Its whole state (the replay's {@link Checkpoint}, the feed's node capacities, the last applied instant and the count
 * of facts) can be saved ({@link #checkpoint}) and restored ({@link #restore}): the restored ledger, offered the facts
 * after its last applied instant, equals the one that was saved, offered the same facts.
 */
public final class LiveLedger {

    private static final GrantPolicy GRANTS = new LongTermMaxMin();
    /** The version of what {@link #checkpoint} writes after the core's checkpoint. */
    private static final int SHELL_FORMAT = 2;
    /** The version before memory was kept in thousandths of a MB (the feed's capacities in whole MB). */
    private static final int SHELL_FORMAT_WHOLE_MB = 1;

    /** The buffer a first checkpoint starts from. */
    private static final int MIN_CHECKPOINT_BYTES = 1 << 14;

    private final String clusterId;
    private Replay replay;
    /** The size of the last checkpoint ({@link #checkpoint}). */
    private int lastCheckpointBytes = MIN_CHECKPOINT_BYTES;
    private final LedgerFeed feed;
    private long lastApplied = Long.MIN_VALUE;
    private long facts;
    /** The end of the last period the closer stored, as last {@link #release}d. */
    private long closedUntilMs = Long.MIN_VALUE;
    private final String currency;
    /** The settings this ledger's replay was configured from ({@link #continueUnder} takes what it can of them). */
    private LedgerSettings settings;
    /** The tenants' configurations of the settings last continued under, by identity ({@link #continueUnder}). */
    private final Map<LedgerSettings.Tenant, TenantConfig> tenantConfigs = new IdentityHashMap<>();

    /** A ledger of {@code clusterId} under {@code settings} holding {@code facts} (any order). */
    public LiveLedger(String clusterId, LedgerSettings settings, List<LedgerFact> facts) {
        this.clusterId = clusterId;
        this.currency = settings.currency();
        this.settings = settings;
        ReplayConfig config = settings.toReplayConfig(clusterId, settings.registeredAt());
        this.replay = new Replay(config);
        this.feed = new LedgerFeed(config.cluster().capacity());
        if (!offer(facts)) {
            throw new IllegalStateException("a fresh ledger refused facts");
        }
    }

    private LiveLedger(String clusterId, LedgerSettings settings, Replay replay, LedgerFeed feed, long lastApplied,
            long facts) {
        this.clusterId = clusterId;
        this.settings = settings;
        this.currency = settings.currency();
        this.replay = replay;
        this.feed = feed;
        this.lastApplied = lastApplied;
        this.facts = facts;
    }

    /**
     * The version of {@code settings} for {@code clusterId} at {@code atMs}: a checkpoint at {@code atMs} is restored
     * only under the same one ({@link Checkpoint#settingsVersion(ReplayConfig, long)}: a change from a later instant
     * leaves it as it was).
     */
    public static String settingsVersion(String clusterId, LedgerSettings settings, long atMs) {
        return Checkpoint.settingsVersion(settings.toReplayConfig(clusterId, settings.registeredAt()), atMs);
    }

    /** The version of {@code settings} for {@code clusterId} as they stand, every change included. */
    public static String settingsVersion(String clusterId, LedgerSettings settings) {
        return settingsVersion(clusterId, settings, Long.MAX_VALUE);
    }

    /** The version a checkpoint of this ledger is made under: that of its settings at its clock. */
    public String settingsVersion() {
        return Checkpoint.settingsVersion(replay.config(), replay.ledger().clock());
    }

    /**
     * This ledger's whole state, for {@link #restore}. Written into a buffer the size of the last one and an eighth: at
     * 1,000 tenants a checkpoint is about 4 MB, and a buffer grown from a few KB by doubling made five arrays of half a
     * MB and more on the way, each "humongous" to G1 and each able to start a concurrent cycle.
     */
    public byte[] checkpoint() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(lastCheckpointBytes + lastCheckpointBytes / 8);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            Checkpoint.write(replay, out);
            out.writeByte(SHELL_FORMAT);
            out.writeLong(lastApplied);
            out.writeLong(facts);
            feed.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        lastCheckpointBytes = Math.max(bytes.size(), MIN_CHECKPOINT_BYTES);
        return bytes.toByteArray();
    }

    /**
     * The ledger {@link #checkpoint} saved, under {@code settings}.
     *
     * @throws IllegalArgumentException
     *             when {@code state} is not a checkpoint this server reads, or was made under other settings
     */
    public static LiveLedger restore(String clusterId, LedgerSettings settings, byte[] state) {
        ReplayConfig config = settings.toReplayConfig(clusterId, settings.registeredAt());
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(state))) {
            Replay replay = Checkpoint.read(config, in);
            int format = in.readUnsignedByte();
            if (format != SHELL_FORMAT && format != SHELL_FORMAT_WHOLE_MB) {
                throw new IllegalArgumentException("live ledger checkpoint format version " + format
                        + " is unknown: this server reads versions " + SHELL_FORMAT_WHOLE_MB + " and " + SHELL_FORMAT
                        + " only");
            }
            long lastApplied = in.readLong();
            long facts = in.readLong();
            LedgerFeed feed = LedgerFeed.read(in, format == SHELL_FORMAT_WHOLE_MB ? MemoryUnits.PER_MB : 1);
            return new LiveLedger(clusterId, settings, replay, feed, lastApplied, facts);
        } catch (IOException e) {
            throw new IllegalArgumentException("live ledger checkpoint is unreadable: " + e.getMessage(), e);
        }
    }

    /**
     * Goes on under {@code settings} without replaying anything when they say what this ledger's settings say up to its
     * clock (a change made after the latest fact applied: {@link Replay#continuesUnder}) and keep its currency; false,
     * changing nothing, otherwise (then the ledger must be rebuilt). Then {@link #takeChanges}.
     */
    public boolean continueUnder(LedgerSettings settings) {
        if (!currency.equals(settings.currency())) {
            return false;
        }
        if (tenantConfigs.size() > 2 * (settings.tenants() == null ? 0 : settings.tenants().size()) + 64) {
            // many tenants changed since the map was filled: from now on, only those of these settings
            tenantConfigs.clear();
        }
        Optional<Replay> continued = replay.continuedUnder(settings.toReplayConfig(clusterId,
                settings.registeredAt(), tenantConfigs, this.settings, replay.config()), lastApplied);
        continued.ifPresent(r -> {
            replay = r;
            this.settings = settings;
        });
        return continued.isPresent();
    }

    /**
     * Takes every settings change known at once ({@link Replay#takeChanges}), so the views show it before the next
     * fact comes: the clock may move past the latest fact applied, and a fact before it is then refused
     * ({@link #refuses}), as a late one.
     */
    public void takeChanges() {
        replay.takeChanges();
        lastApplied = Math.max(lastApplied, replay.ledger().clock() - 1);
    }

    /** Whether a fact at {@code atMs} comes too late to be applied in place (the ledger must be rebuilt for it). */
    public boolean refuses(long atMs) {
        return atMs <= lastApplied;
    }

    /** The replay this ledger runs (for a what-if started from its checkpoint, which then owns it). */
    Replay replay() {
        return replay;
    }

    /** The feed this ledger reads facts through (as {@link #replay()}). */
    LedgerFeed feed() {
        return feed;
    }

    /**
     * Drops the statements of the ended periods the period closer has stored but the last, whose end is
     * {@code closedUntil} (null: none closed), and keeps none of those it ends later that end before that one: from
     * then on it holds, and its {@link #checkpoint} carries, only the last closed period and those ended and not closed
     * yet ({@link Replay#release}). The closed ones are read from PostgreSQL; the last is kept for the closer, which
     * takes its recomputation after late facts from this ledger at its next close instead of replaying it
     * ({@link #stated}).
     */
    public void release(Instant closedUntil) {
        if (closedUntil != null) {
            closedUntilMs = Math.max(closedUntilMs, closedUntil.toEpochMilli());
            replay.release(settings.schedule().periodOf(closedUntilMs - 1).start());
        }
    }

    /** Whether the ledger holds the statement of a period ended after the last one it knows closed ({@link #release}). */
    public boolean holdsEnded() {
        List<Statement> held = replay.statements();
        return !held.isEmpty() && held.get(held.size() - 1).period().end() > closedUntilMs;
    }

    /**
     * The statements of the periods ending in {@code [firstEnd, through]}, as this ledger stated them, when it runs
     * under {@code asked} and holds every one of them; empty otherwise. The period closer takes them instead of
     * replaying the facts ({@code PeriodCloser.StoredFacts#held}): this ledger holds every fact stored before its
     * horizon, and a period's statement depends on the facts up to its end alone.
     */
    public Optional<List<Statement>> stated(LedgerSettings asked, long firstEnd, long through) {
        if (!settings.equals(asked) || !replay.holdsClosedFrom(firstEnd) || replay.openPeriod().start() < through) {
            return Optional.empty();
        }
        return Optional.of(replay.statements().stream()
                .filter(s -> s.period().end() >= firstEnd && s.period().end() <= through).toList());
    }

    /**
     * The event time of the latest fact applied, or the instant before the latest settings change taken when that is
     * later ({@link #takeChanges}): every fact up to it is held. {@link Long#MIN_VALUE} before the first.
     */
    public long lastApplied() {
        return lastApplied;
    }

    /** How many facts have been applied. */
    public long facts() {
        return facts;
    }

    /** The id of the period not yet closed. */
    public String openPeriod() {
        return replay.openPeriod().id();
    }

    /** The end of the period not yet closed (exclusive, epoch ms): a fact at or after it closes that period. */
    public long openPeriodEnd() {
        return replay.openPeriod().end();
    }

    /**
     * Applies {@code newFacts} if all are later than every fact applied so far; returns false, changing nothing, if one
     * is not (the ledger must then be rebuilt).
     */
    public boolean offer(List<LedgerFact> newFacts) {
        if (newFacts.isEmpty()) {
            return true;
        }
        long earliest = Long.MAX_VALUE;
        long latest = Long.MIN_VALUE;
        for (LedgerFact fact : newFacts) {
            earliest = Math.min(earliest, fact.at());
            latest = Math.max(latest, fact.at());
        }
        if (refuses(earliest)) {
            return false;
        }
        feed.apply(newFacts, replay);
        lastApplied = latest;
        facts += newFacts.size();
        return true;
    }

    /** The latest event time applied (the watermark), or {@code Long.MIN_VALUE} before the first fact. */
    public long watermark() {
        return lastApplied;
    }

    /** What the ledger says as of its last event (or its registration when it has none). */
    public LiveView view(long grantIntervalMs) {
        long at = replay.ledger().clock();
        AccountTable accounts = replay.ledger().accounts(at);
        ResourceVector capacity = replay.ledger().capacity();
        return new LiveView(clusterId, Instant.ofEpochMilli(at), facts, grantIntervalMs, capacity, accounts,
                () -> TreeGrants.levels(capacity, accounts, grantIntervalMs, GRANTS),
                replay.openStatement(at, accounts), replay.statements(), currency);
    }
}
