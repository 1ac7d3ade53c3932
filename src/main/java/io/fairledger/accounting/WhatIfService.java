package io.fairledger.accounting;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.BooleanSupplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.fairledger.config.FairledgerConfig;
import io.fairledger.core.chargeback.Statement;
import io.fairledger.core.fairness.FairnessReport;
import io.fairledger.core.replay.Replay;
import io.fairledger.core.replay.ReplayConfig;
import io.fairledger.core.replay.ReplayResult;
import io.fairledger.errors.Invalid;
import io.fairledger.facts.FactCursor;
import io.fairledger.facts.RetentionFloors;
import io.fairledger.tenancy.LedgerSettings;

/**
 * What-ifs: the statements and fairness a past window would have had under a configuration variant, replayed from the
 * stored facts without touching the books. Where the replay starts is chosen here; the replay itself is
 * {@link WhatIfReplay}.
 */
@ApplicationScoped
public class WhatIfService {

    @Inject
    SettingsInForce inForce;

    @Inject
    FactCursor facts;

    @Inject
    StoredLedgerStates states;

    @Inject
    RetentionFloors floors;

    @Inject
    FairledgerConfig config;

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
     * registration, as does either when no such checkpoint is stored. The facts are streamed, never held; the replay
     * stops when {@code fairledger.what-if.deadline} passes or {@code gone} says the caller has gone
     * ({@link WhatIfReplay}).
     *
     * @throws Invalid
     *             for an invalid variant, {@code until} not after {@code from} or before the registration, or a window
     *             longer than {@code fairledger.what-if.max-window}
     */
    public WhatIf whatIf(String clusterId, LedgerSettings variant, Instant from, Instant until,
            BooleanSupplier gone) {
        LedgerSettings live = inForce.settings(clusterId);
        LedgerSettings used = variant == null
                ? live
                : variant.tenants() == null
                        ? variant.withTenants(live.tenants())
                        : WhatIfVariant.inLiveOrder(variant, live);
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
            Start start = start(clusterId, live, used, usedConfig, from, until, horizon);
            WhatIfReplay replay = new WhatIfReplay(start.replay(), config.whatIf().deadline(), gone);
            facts.forEachBetween(clusterId, StreamedReplay.firstAfter(start.state()), until.toEpochMilli(), horizon,
                    replay::accept);
            ReplayResult result = replay.finish(until.toEpochMilli());
            return new WhatIf(start.from(), start.at(), replay.factsRead(), periods(result, from, used.currency()));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the facts of " + clusterId, e);
        }
    }

    /**
     * Where a what-if's replay starts: {@code replay} from the stored {@code state} (empty: from the registration),
     * reported as {@code from} ({@value #FROM_CHECKPOINT}, {@value #FROM_ROUND} or {@value #FROM_REGISTRATION}) at
     * {@code at}.
     */
    private record Start(StreamedReplay replay, Optional<StoredLedgerStates.State> state, String from, Instant at) {
    }

    /**
     * The start of a what-if of {@code used} against the {@code live} settings: a checkpoint repriced for a change of
     * prices only, a checkpoint before the round start for a change of weights or discount rates under ROUNDS, else
     * the registration; refused when it would replay facts that retention has dropped.
     */
    private Start start(String clusterId, LedgerSettings live, LedgerSettings used, ReplayConfig usedConfig,
            Instant from, Instant until, String horizon) throws SQLException {
        ReplayConfig liveConfig = until.isBefore(live.registeredAt())
                ? null
                : live.toReplayConfig(clusterId, until);
        boolean pricesOnly = liveConfig != null && Replay.sameLedger(liveConfig, usedConfig);
        OptionalLong roundStart = liveConfig == null || pricesOnly
                ? OptionalLong.empty()
                : Replay.reweightStart(liveConfig, usedConfig, from.toEpochMilli());
        Optional<StoredLedgerStates.State> state = pricesOnly
                ? states.newestAtOrBefore(clusterId, live, from.toEpochMilli(), horizon)
                : roundStart.isPresent()
                        // a state holding no fact at the round start: those are applied under the variant
                        ? states.newestAtOrBefore(clusterId, live, roundStart.getAsLong() - 1, horizon)
                                .filter(s -> s.replay().ledger().clock() < roundStart.getAsLong())
                        : Optional.empty();
        long after = state.map(StoredLedgerStates.State::lastApplied).orElse(Long.MIN_VALUE);
        refuseBeforeFloor(clusterId, pricesOnly, from, after);
        if (state.isEmpty()) {
            return new Start(StreamedReplay.fromRegistration(usedConfig), state, FROM_REGISTRATION,
                    used.registeredAt());
        } else if (pricesOnly) {
            return new Start(new StreamedReplay(state.get().replay().repriced(usedConfig), state.get().feed()), state,
                    FROM_CHECKPOINT, Instant.ofEpochMilli(after));
        }
        return new Start(StreamedReplay.switching(state.get(), roundStart.getAsLong(), usedConfig), state,
                FROM_ROUND, Instant.ofEpochMilli(roundStart.getAsLong()));
    }

    /** The periods of {@code result} ending after {@code from}, with their fairness. */
    private static List<WhatIfPeriod> periods(ReplayResult result, Instant from, String currency) {
        List<WhatIfPeriod> out = new ArrayList<>();
        for (int i = 0; i < result.statements().size(); i++) {
            Statement s = result.statements().get(i);
            if (s.period().end() > from.toEpochMilli()) {
                FairnessReport f = result.fairness().get(i);
                out.add(new WhatIfPeriod(StatementView.of(s, StatementView.PROVISIONAL, currency),
                        f.sharingBenefit(), f.sharingLoss(), f.jainFairness(), f.equality()));
            }
        }
        return out;
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
}
