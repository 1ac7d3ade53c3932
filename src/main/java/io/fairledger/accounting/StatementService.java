package io.fairledger.accounting;

import io.fairledger.tenancy.LedgerSettings;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

import javax.sql.DataSource;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fairledger.facts.FactCursor;
import io.fairledger.facts.RetentionFloors;
import io.fairledger.core.chargeback.Period;
import io.fairledger.core.chargeback.Statement;
import io.fairledger.core.fairness.FairnessReport;
import io.fairledger.core.model.TenantPath;
import io.fairledger.config.FairledgerConfig;
import io.fairledger.core.replay.Replay;
import io.fairledger.core.replay.ReplayConfig;
import io.fairledger.core.replay.ReplayResult;
import io.fairledger.tenancy.ClosablePeriods;
import io.fairledger.tenancy.TenancyService;
import io.fairledger.errors.Conflict;
import io.fairledger.errors.Invalid;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

/**
 * A cluster's statements: closed periods as stored, read and never recomputed, then the periods that have ended but are
 * not closed yet ({@code provisional}), as the live ledger states them ({@link EndedPeriods}): no request replays the
 * facts. Periods are closed by {@link PeriodCloser}, driven by the live ledgers' tick ({@link #closeDue}) and by
 * configuration changes ({@link #closeBeforeChange}), whether or not anyone reads them.
 */
@ApplicationScoped
public class StatementService implements ClosablePeriods {

    private static final Logger LOG = Logger.getLogger(StatementService.class);

    @Inject
    TenancyService tenancy;

    @Inject
    FactCursor facts;

    @Inject
    ObjectMapper json;

    @Inject
    DataSource dataSource;

    @Inject
    EndedPeriods ended;

    @Inject
    StoredLedgerStates states;

    @Inject
    FairledgerConfig config;

    @Inject
    RetentionFloors floors;

    private ClosedJsonCache closedJson;

    @PostConstruct
    void holdClosedJson() {
        closedJson = new ClosedJsonCache(config.statements().closedCache());
    }

    /** Per cluster: the configuration version and the watermark at which its next period is due to close. */
    private final Map<String, DueAt> due = new ConcurrentHashMap<>();

    private record DueAt(String version, long watermark) {
    }

    /**
     * Closes the periods of {@code clusterId} that the watermark has passed by their end plus the allowed lateness,
     * each at the transaction that passed it ({@link PeriodCloser#closeDue}), reading only the facts stored by
     * transactions before {@code horizon} (final ones, the same for every replica). Cheap when nothing is due: the instant the next
     * period is due is kept per configuration version.
     *
     * @param version   the cluster's configuration version ({@link TenancyService#configurationVersion})
     * @param watermark the latest event time applied by the caller's live ledger
     */
    public void closeDue(String clusterId, String version, long watermark, String horizon) {
        DueAt next = due.get(clusterId);
        if (next != null && next.version().equals(version) && watermark < next.watermark()) {
            return;
        }
        LedgerSettings settings = settings(clusterId);
        ClosedStatementTable table = table(clusterId, settings);
        List<PeriodCloser.ClosedPeriod> closed = closer(clusterId, table, horizon).closeDue(settings);
        closed.forEach(c -> LOG.debugf("cluster %s: period %s closed", clusterId, c.statement().period()));
        Period open = PeriodCloser.nextToClose(settings, table.closed());
        due.put(clusterId, new DueAt(version, open.end() + settings.lateness().toMillis()));
    }

    /**
     * Closes what is due, then every period that has ended by the latest stored fact, under the settings in force
     * ({@link PeriodCloser#closeEnded}), and returns the start of the open period, from which a configuration change
     * takes effect; null when the cluster has no ledger settings yet (then a change counts from its registration).
     */
    @Override
    public Instant closeBeforeChange(String clusterId) {
        if (!tenancy.hasLedgerSettings(clusterId)) {
            return null;
        }
        floors.of(clusterId).ifPresent(floor -> {
            throw new Conflict("the facts of cluster '" + clusterId + "' before " + floor.replayableFrom()
                    + " were dropped by retention (fairledger.retention.facts), and a change of its ledger settings or "
                    + "tenants replays its ledger from the registration under the new configuration: this server "
                    + "cannot make that change; the oldest instant still replayable is " + floor.replayableFrom());
        });
        LedgerSettings settings = settings(clusterId);
        due.remove(clusterId);
        try {
            return closer(clusterId, table(clusterId, settings), facts.horizon()).closeEnded(settings);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the fact horizon for " + clusterId, e);
        }
    }

    /**
     * The closer of {@code clusterId} over the facts stored before {@code horizon}; once retention has dropped facts of
     * the cluster, it starts only from stored states at or after the pinned checkpoint ({@link StoredFactsBelow}).
     */
    private PeriodCloser closer(String clusterId, ClosedStatementTable table, String horizon) {
        return new PeriodCloser(clusterId, table,
                new StoredFactsBelow(facts, states, clusterId, horizon, floors.of(clusterId)));
    }

    private ClosedStatementTable table(String clusterId, LedgerSettings settings) {
        return new ClosedStatementTable(dataSource, json, clusterId, settings);
    }

    /** One period of a what-if: its statement and the fairness it would have had. */
    public record WhatIfPeriod(StatementView statement, double sharingBenefit, double sharingLoss, double jainFairness,
            double equality) {
    }

    /** A what-if's replay started from the cluster's registration. */
    public static final String FROM_REGISTRATION = "registration";
    /** A what-if's replay started from a stored checkpoint of the live ledger. */
    public static final String FROM_CHECKPOINT = "checkpoint";
    /**
     * A what-if's replay started from a stored checkpoint of the live ledger before a round start, and continued under
     * the variant from that round start (a change of weights or discount rates under ROUNDS).
     */
    public static final String FROM_ROUND = "round";

    /**
     * A what-if's answer.
     *
     * @param startedFrom
     *            {@value #FROM_CHECKPOINT} (a stored state of the live ledger, for a change of prices only),
     *            {@value #FROM_ROUND} (a stored state of the live ledger before a round start, continued under the
     *            variant from that round start, for a change of weights or discount rates under ROUNDS) or
     *            {@value #FROM_REGISTRATION}
     * @param startedAt
     *            the checkpoint's latest fact, the round start at which the variant took over, or the registration
     * @param factsReplayed
     *            every stored fact it read: after the checkpoint, or after the stored state it started from before the
     *            round start, or from the registration
     * @param periods
     *            one per period ending in {@code (from, until]}
     */
    public record WhatIf(String startedFrom, Instant startedAt, long factsReplayed, List<WhatIfPeriod> periods) {
    }

    /**
     * The statements and fairness of the periods ending in {@code (from, until]} had {@code variant} been the
     * configuration (the live one when null; its tenant tree when the variant lists none), computed from the stored
     * facts by the same replay as the live books, without touching them. A variant that changes only prices (the
     * chargeback settings) starts from the newest checkpoint of the live ledger at or before {@code from}, repriced
     * (the ledger does not depend on prices, {@link Replay#sameLedger}). Under ROUNDS, a variant that changes only
     * tenant weights, discount rates (and prices) starts at the round start {@code R} at or before the first period
     * in the window ({@link Replay#reweightStart}): from the newest checkpoint of the live ledger holding no fact at
     * or after {@code R}, replayed under the live settings up to {@code R} and continued there under the variant
     * ({@link Replay#reweightedAt}: what a round start erases is rebuilt from what it keeps). Any other starts from the
     * registration, as does either when no such checkpoint is stored. The
     * facts are streamed, never held; the replay stops when {@code fairledger.what-if.deadline} passes or
     * {@code gone} says the caller has gone ({@link WhatIfReplay}).
     *
     * @throws Invalid
     *             for an invalid variant, {@code until} not after {@code from} or before the registration, or a window
     *             longer than {@code fairledger.what-if.max-window}
     */
    public WhatIf whatIf(String clusterId, LedgerSettings variant, Instant from, Instant until,
            BooleanSupplier gone) {
        LedgerSettings live = settings(clusterId);
        LedgerSettings used = variant == null
                ? live
                : variant.tenants() == null
                        ? variant.withTenants(live.tenants())
                        : inLiveOrder(variant, live);
        WhatIfLimits.check(variant, used, from, until, config.whatIf().maxWindow());
        if (!until.isAfter(from)) {
            throw new Invalid("until " + until + " must be after from " + from);
        }
        Duration maxWindow = config.whatIf().maxWindow();
        if (Duration.between(from, until).compareTo(maxWindow) > 0) {
            throw new Invalid("a what-if window is at most " + days(maxWindow) + " (fairledger.what-if.max-window); "
                    + "from " + from + " until " + until + " is " + days(Duration.between(from, until))
                    + ": ask for several shorter windows");
        }
        ReplayConfig usedConfig;
        try {
            usedConfig = used.toReplayConfig(clusterId, until);
        } catch (IllegalArgumentException e) {
            throw new Invalid("invalid ledger settings: " + e.getMessage());
        }
        if (until.isBefore(used.registeredAt())) {
            throw new Invalid("until " + until + " is before the cluster's registration "
                    + used.registeredAt());
        }
        try {
            String horizon = facts.horizon();
            ReplayConfig liveConfig = until.isBefore(live.registeredAt())
                    ? null
                    : live.toReplayConfig(clusterId, until);
            boolean pricesOnly = liveConfig != null && Replay.sameLedger(liveConfig, usedConfig);
            OptionalLong roundStart = liveConfig == null || pricesOnly
                    ? OptionalLong.empty()
                    : Replay.reweightStart(liveConfig, usedConfig, from.toEpochMilli());
            Optional<StoredLedgerStates.State> start = pricesOnly
                    ? states.newestAtOrBefore(clusterId, live, from.toEpochMilli(), horizon)
                    : roundStart.isPresent()
                            // a state holding no fact at the round start: those are applied under the variant
                            ? states.newestAtOrBefore(clusterId, live, roundStart.getAsLong() - 1, horizon)
                                    .filter(s -> s.replay().ledger().clock() < roundStart.getAsLong())
                            : Optional.empty();
            long after = start.map(StoredLedgerStates.State::lastApplied).orElse(Long.MIN_VALUE);
            refuseBeforeFloor(clusterId, pricesOnly, from, after);
            StreamedReplay streamed;
            String startedFrom;
            Instant startedAt;
            if (start.isEmpty()) {
                streamed = StreamedReplay.fromRegistration(usedConfig);
                startedFrom = FROM_REGISTRATION;
                startedAt = used.registeredAt();
            } else if (pricesOnly) {
                streamed = new StreamedReplay(start.get().replay().repriced(usedConfig), start.get().feed());
                startedFrom = FROM_CHECKPOINT;
                startedAt = Instant.ofEpochMilli(after);
            } else {
                streamed = StreamedReplay.switching(start.get(), roundStart.getAsLong(), usedConfig);
                startedFrom = FROM_ROUND;
                startedAt = Instant.ofEpochMilli(roundStart.getAsLong());
            }
            WhatIfReplay replay = new WhatIfReplay(streamed, config.whatIf().deadline(), gone);
            facts.forEachBetween(clusterId, StreamedReplay.firstAfter(start), until.toEpochMilli(), horizon,
                    replay::accept);
            ReplayResult result = replay.finish(until.toEpochMilli());
            List<WhatIfPeriod> out = new ArrayList<>();
            for (int i = 0; i < result.statements().size(); i++) {
                Statement s = result.statements().get(i);
                if (s.period().end() > from.toEpochMilli()) {
                    FairnessReport f = result.fairness().get(i);
                    out.add(new WhatIfPeriod(StatementView.of(s, StatementView.PROVISIONAL, used.currency()),
                            f.sharingBenefit(), f.sharingLoss(),
                            f.jainFairness(), f.equality()));
                }
            }
            return new WhatIf(startedFrom, startedAt, replay.factsRead(), out);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the facts of " + clusterId, e);
        }
    }

    /**
     * {@code variant} with its tenants in the order of {@code live}'s when both list the same tenants, else as it is.
     * The order of the list only decides in which order the ledger creates the nodes (which moves results by
     * floating-point rounding at most); listing the tenants in another order is not another configuration, and a
     * what-if that starts at a round continues the live ledger's tree ({@link Replay#reweightStart} asks for the
     * same order).
     */
    private static LedgerSettings inLiveOrder(LedgerSettings variant, LedgerSettings live) {
        if (live.tenants() == null || live.tenants().size() != variant.tenants().size()) {
            return variant;
        }
        Map<TenantPath, LedgerSettings.Tenant> byPath = new HashMap<>();
        try {
            for (LedgerSettings.Tenant t : variant.tenants()) {
                byPath.put(TenantPath.parse(t.path()), t);
            }
            List<LedgerSettings.Tenant> ordered = new ArrayList<>(byPath.size());
            for (LedgerSettings.Tenant t : live.tenants()) {
                LedgerSettings.Tenant same = byPath.get(TenantPath.parse(t.path()));
                if (same == null) {
                    return variant;
                }
                ordered.add(same);
            }
            return byPath.size() == variant.tenants().size() ? variant.withTenants(ordered) : variant;
        } catch (IllegalArgumentException e) {
            return variant; // an invalid path is refused with the rest of the settings
        }
    }

    /**
     * Refuses (422) a what-if that would replay facts of {@code clusterId} that retention has dropped: one that starts
     * before the cluster's floor (from the registration, or from a checkpoint older than the floor).
     */
    private void refuseBeforeFloor(String clusterId, boolean pricesOnly, Instant from, long after) {
        Optional<RetentionFloors.Floor> floor = floors.of(clusterId);
        if (floor.isEmpty() || after >= floor.get().checkpointMs()) {
            return;
        }
        Instant oldest = floor.get().replayableFrom();
        throw new Invalid(pricesOnly
                ? "the facts of cluster '" + clusterId + "' before " + oldest + " were dropped by retention "
                        + "(fairledger.retention.facts): a what-if from " + from + " would replay them; the oldest "
                        + "instant still replayable is " + oldest + ": ask from " + oldest + " on"
                : "the facts of cluster '" + clusterId + "' before " + oldest + " were dropped by retention "
                        + "(fairledger.retention.facts): a what-if that changes more than prices replays from the "
                        + "registration, or, for a change of weights or discount rates under ROUNDS, from a stored "
                        + "state before the round start at or before the window's first period; from " + from
                        + " that replays them; the oldest instant still replayable is " + oldest + ", from which only "
                        + "a change of prices, or of weights or discount rates under ROUNDS in a later window, can be "
                        + "asked");
    }

    /** {@code d} in days, as "92 days" or "92.5 days". */
    private static String days(Duration d) {
        return BigDecimal.valueOf(d.toMillis()).divide(BigDecimal.valueOf(Duration.ofDays(1).toMillis()), 3,
                RoundingMode.HALF_UP).stripTrailingZeros().toPlainString() + " days";
    }

    /** The end of the last closed period of {@code clusterId}, null when none is closed (for retention). */
    public Instant closedUntil(String clusterId) {
        List<ClosedStatementTable.Closing> closed = table(clusterId, settings(clusterId)).closings(Long.MAX_VALUE);
        return closed.isEmpty() ? null : closed.get(closed.size() - 1).end();
    }

    /**
     * The first closed period of {@code clusterId} ending after {@code afterMs} that was kept under other settings
     * than the live ones, if any (for retention: a late fact for it would be priced from a replay under those
     * settings, which needs the facts from the registration).
     */
    public Optional<String> closedUnderOtherSettings(String clusterId, long afterMs) {
        LedgerSettings live = settings(clusterId);
        return table(clusterId, live).closings(Long.MAX_VALUE).stream()
                .filter(c -> c.end().toEpochMilli() > afterMs && !c.settings().equals(live))
                .map(ClosedStatementTable.Closing::period).findFirst();
    }

    /**
     * The settings with the cluster's current tenant tree ({@link TenancyService#ledgerSettings}), read again only when
     * the cluster's configuration version changed ({@link TenancyService#configurationVersion}, one small query):
     * reading them means reading the whole tenant tree.
     */
    public LedgerSettings settings(String clusterId) {
        String version = tenancy.configurationVersion(clusterId);
        VersionedSettings known = settingsByCluster.get(clusterId);
        if (known != null && known.version().equals(version)) {
            return known.settings();
        }
        LedgerSettings settings = tenancy.ledgerSettings(clusterId);
        settingsByCluster.put(clusterId, new VersionedSettings(version, settings));
        return settings;
    }

    /** Per cluster: its settings as last read, and the configuration version they were read at. */
    private final Map<String, VersionedSettings> settingsByCluster = new ConcurrentHashMap<>();

    private record VersionedSettings(String version, LedgerSettings settings) {
    }

    /**
     * Statements of every period ended by {@code until}: the closed ones as stored (with the adjustment lines they
     * carry), then the provisional ones from the live ledger, as of its latest fact. A period that has not ended is
     * not listed, however far {@code until} lies in the future.
     */
    public List<StatementView> statements(String clusterId, Instant until) {
        LedgerSettings settings = settingsAt(clusterId, until);
        // closed periods are contiguous: those ended by until are a prefix, and a provisional period after that prefix
        // ends after until unless the prefix holds every closed period
        List<PeriodCloser.ClosedPeriod> closed = table(clusterId, settings).closedBy(until.toEpochMilli());
        List<StatementView> out = new ArrayList<>();
        closed.forEach(c -> out.add(c.statement()));
        out.addAll(provisional(clusterId, PeriodCloser.closedUntil(closed), until, settings.currency()));
        return out;
    }

    /**
     * {@link #statements} as the JSON text the API writes for that list, without parsing the stored statements: the
     * closed ones are sent as stored ({@link ClosedStatementTable#apiJson}), read from PostgreSQL once and then held
     * ({@link ClosedJsonCache}, {@code fairledger.statements.closed-cache}), the provisional ones written by
     * {@code json} once per live view. The same text, byte for byte, as {@code json} writing {@link #statements}.
     */
    public JsonArrayText statementsJson(String clusterId, Instant until) {
        LedgerSettings settings = settingsAt(clusterId, until);
        List<ClosedStatementTable.ApiJson> closed = table(clusterId, settings).apiJson(until.toEpochMilli(),
                closedJson.periodsOf(clusterId));
        Instant closedUntil = closed.isEmpty() ? null : closed.get(closed.size() - 1).end();
        List<byte[]> texts = new ArrayList<>();
        for (ClosedStatementTable.ApiJson c : closed) {
            if (c.text() == null) {
                texts.add(closedJson.get(clusterId, c.period()));
            } else {
                closedJson.put(clusterId, c.period(), c.text());
                texts.add(c.text());
            }
        }
        List<Statement> ended = this.ended.ended(clusterId);
        List<byte[]> provisional = provisionalJson(clusterId, ended, settings.currency());
        for (int i = 0; i < ended.size(); i++) {
            if (provisionalBy(ended.get(i), closedUntil, until)) {
                texts.add(provisional.get(i));
            }
        }
        return new JsonArrayText(texts);
    }

    /**
     * A JSON array given as the UTF-8 texts of its elements, so that it can be sent without joining them into one array
     * first (at 1,000 tenants a month of statements is about 11 MB).
     */
    public record JsonArrayText(List<byte[]> elements) {

        private static final byte[] OPEN = {'['};
        private static final byte[] COMMA = {','};
        private static final byte[] CLOSE = {']'};

        /** The array's text in pieces, in order: {@code [}, the elements separated by {@code ,}, then {@code ]}. */
        public byte[][] pieces() {
            byte[][] out = new byte[Math.max(2, 2 * elements.size() + 1)][];
            out[0] = OPEN;
            for (int i = 0; i < elements.size(); i++) {
                out[2 * i + 1] = elements.get(i);
                if (i > 0) {
                    out[2 * i] = COMMA;
                }
            }
            out[out.length - 1] = CLOSE;
            return out;
        }
    }

    /**
     * The JSON text (UTF-8) of each of {@code ended} as a provisional statement in {@code currency}, written once per
     * live view: the live ledger hands out the same list until its view changes, so repeated reads between two facts
     * write nothing again.
     */
    private List<byte[]> provisionalJson(String clusterId, List<Statement> ended, String currency) {
        ProvisionalJson known = provisionalByCluster.get(clusterId);
        if (known != null && known.ended() == ended && known.currency().equals(currency)) {
            return known.texts();
        }
        List<byte[]> texts = new ArrayList<>(ended.size());
        try {
            for (Statement s : ended) {
                texts.add(json.writeValueAsBytes(StatementView.of(s, StatementView.PROVISIONAL, currency)));
            }
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the statements of " + clusterId, e);
        }
        provisionalByCluster.put(clusterId, new ProvisionalJson(ended, currency, texts));
        return texts;
    }

    /** Per cluster: the provisional statements' JSON texts, for the live ledger's list of ended periods they are of. */
    private final Map<String, ProvisionalJson> provisionalByCluster = new ConcurrentHashMap<>();

    private record ProvisionalJson(List<Statement> ended, String currency, List<byte[]> texts) {
    }

    /**
     * {@link #statements} with only the lines of {@code tenant} (and, with {@code subtree}, of every tenant under it):
     * the closed periods' lines read from their own rows ({@link ClosedStatementTable#closedWithLinesOf}), so the cost
     * is that of the lines returned. Every period is listed, with no lines where the tenant has none; the closed
     * ones keep their {@code totalCharge}.
     */
    public List<StatementView> statementsOf(String clusterId, TenantPath tenant, boolean subtree, Instant until) {
        LedgerSettings settings = settingsAt(clusterId, until);
        List<StatementView> out = new ArrayList<>(
                table(clusterId, settings).closedWithLinesOf(tenant, subtree, until.toEpochMilli()));
        Instant closedUntil = out.isEmpty() ? null : out.get(out.size() - 1).end();
        out.addAll(provisional(clusterId, closedUntil, until, settings.currency(),
                path -> subtree ? path.isWithin(tenant) : path.equals(tenant)));
        return out;
    }

    /** The settings in force, refusing an {@code until} before the cluster's registration. */
    private LedgerSettings settingsAt(String clusterId, Instant until) {
        LedgerSettings settings = settings(clusterId);
        if (until.isBefore(settings.registeredAt())) {
            throw new Invalid("until " + until + " is before the cluster's registration "
                    + settings.registeredAt());
        }
        return settings;
    }

    /** The periods the live ledger has ended after {@code closedUntil} (null: none closed) and by {@code until}. */
    private List<StatementView> provisional(String clusterId, Instant closedUntil, Instant until, String currency) {
        return provisional(clusterId, closedUntil, until, currency, tenant -> true);
    }

    /** {@link #provisional(String, Instant, Instant, String)} with only the lines of the tenants {@code kept} accepts. */
    private List<StatementView> provisional(String clusterId, Instant closedUntil, Instant until, String currency,
            Predicate<TenantPath> kept) {
        List<StatementView> out = new ArrayList<>();
        for (Statement s : ended.ended(clusterId)) {
            if (provisionalBy(s, closedUntil, until)) {
                out.add(StatementView.of(s, StatementView.PROVISIONAL, currency, kept));
            }
        }
        return out;
    }

    /**
     * Whether the live ledger's ended period {@code s} is listed as provisional: it ended after the last closed period
     * ({@code closedUntil}, null when none is closed) and by {@code until}.
     */
    private static boolean provisionalBy(Statement s, Instant closedUntil, Instant until) {
        Instant end = Instant.ofEpochMilli(s.period().end());
        return (closedUntil == null || end.isAfter(closedUntil)) && !end.isAfter(until);
    }
}
