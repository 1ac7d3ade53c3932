package io.fairledger.accounting;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.fairledger.core.chargeback.Statement;
import io.fairledger.core.replay.Replay;
import io.fairledger.core.replay.ReplayConfig;
import io.fairledger.core.replay.ReplayResult;
import io.fairledger.facts.LedgerFact;

/**
 * A replay fed from facts streamed in event-time order ({@link LedgerFeed#ORDER}), one instant at a time, as the live
 * ledger applies them ({@link LedgerFeed#apply}): the result equals {@link Books#replay} of the same facts without
 * holding them. What-ifs ({@link WhatIfReplay}) and the period closer ({@link PeriodCloser}) replay through it, from
 * the registration or from a stored state ({@link StoredLedgerStates.State}).
 */
final class StreamedReplay {

    private Replay replay;
    private final LedgerFeed feed;
    private final List<LedgerFact> instant = new ArrayList<>();
    private long read;
    /** The round start at which the replay continues under {@link #variant} ({@link #switching}). */
    private long switchAt = Long.MAX_VALUE;
    private ReplayConfig variant;

    StreamedReplay(Replay replay, LedgerFeed feed) {
        this.replay = replay;
        this.feed = feed;
    }

    /** A replay under {@code config} from the cluster's registration. */
    static StreamedReplay fromRegistration(ReplayConfig config) {
        return new StreamedReplay(new Replay(config), new LedgerFeed(config.cluster().capacity()));
    }

    /** A replay from {@code start} (under the settings it was stored under), or under {@code config} from the registration. */
    static StreamedReplay from(Optional<StoredLedgerStates.State> start, ReplayConfig config) {
        return start.map(s -> new StreamedReplay(s.replay(), s.feed())).orElseGet(() -> fromRegistration(config));
    }

    /**
     * A replay from {@code start} (under the settings it was stored under, its ledger before {@code roundStart}) that
     * continues under {@code variant} from the round start {@code roundStart}, before any fact at it
     * ({@link Replay#reweightedAt}): for a what-if that changes weights or discount rates under ROUNDS.
     */
    static StreamedReplay switching(StoredLedgerStates.State start, long roundStart, ReplayConfig variant) {
        StreamedReplay out = new StreamedReplay(start.replay(), start.feed());
        out.switchAt = roundStart;
        out.variant = variant;
        return out;
    }

    /** The first event time to read after {@code start}: just after its latest fact, or every fact without one. */
    static long firstAfter(Optional<StoredLedgerStates.State> start) {
        return start.map(s -> s.lastApplied() + 1).orElse(Long.MIN_VALUE);
    }

    /** Takes the next fact in event-time order. */
    void accept(LedgerFact fact) {
        read++;
        if (!instant.isEmpty() && instant.get(0).at() != fact.at()) {
            applyInstant();
        }
        if (fact.at() >= switchAt) {
            switchToVariant();
        }
        instant.add(fact);
    }

    /** The result at {@code until}: every period ending at or before it closed and stated. */
    ReplayResult finish(long until) {
        applyInstant();
        if (until >= switchAt) {
            switchToVariant();
        }
        replay.closeUntil(until);
        return replay.result(until);
    }

    /**
     * The statements of every period ending at or before {@code through}; the replay may have gone past it (a stored
     * state later than {@code through}), then those periods were stated when it passed their end.
     */
    List<Statement> statementsThrough(long through) {
        applyInstant();
        replay.closeUntil(through);
        return replay.statements().stream().filter(s -> s.period().end() <= through).toList();
    }

    /** How many facts it has read. */
    long factsRead() {
        return read;
    }

    /** Continues under the variant from the round start, once, after every fact before it. */
    private void switchToVariant() {
        if (variant == null) {
            return;
        }
        applyInstant();
        replay = replay.reweightedAt(switchAt, variant);
        variant = null;
    }

    private void applyInstant() {
        if (instant.isEmpty()) {
            return;
        }
        feed.apply(instant, replay);
        instant.clear();
    }
}
