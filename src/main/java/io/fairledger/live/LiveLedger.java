package io.fairledger.live;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.fairledger.facts.LedgerFact;
import io.fairledger.accounting.LedgerFeed;
import io.fairledger.tenancy.LedgerSettings;
import io.fairledger.accounting.StatementView;
import io.fairledger.core.chargeback.Chargeback;
import io.fairledger.core.fairness.FairnessReport;
import io.fairledger.core.grant.GrantPolicy;
import io.fairledger.core.grant.LongTermMaxMin;
import io.fairledger.core.grant.TreeGrants;
import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.ledger.TenantAccount;
import io.fairledger.core.replay.CanonicalOrder;
import io.fairledger.core.replay.Replay;
import io.fairledger.core.replay.ReplayConfig;

/**
 * One cluster's ledger kept up to date as facts are stored: the core's {@link Replay} fed through a {@link LedgerFeed},
 * exactly as {@code fairledger account} and the statements replay them. Facts later than every fact applied so far are
 * applied in place; a fact at or before the last applied instant cannot be (the ledger only moves forward), so the
 * caller rebuilds the ledger from all stored facts: the result always equals a full replay of the facts stored so far.
 * Not thread-safe: {@link LiveLedgers} serialises updates and publishes immutable {@link LiveView}s.
 */
public final class LiveLedger {

    private static final GrantPolicy GRANTS = new LongTermMaxMin();

    private final String clusterId;
    private final Replay replay;
    private final LedgerFeed feed;
    private long lastApplied = Long.MIN_VALUE;
    private long facts;
    private final String currency;

    /** A ledger of {@code clusterId} under {@code settings} holding {@code facts} (any order). */
    public LiveLedger(String clusterId, LedgerSettings settings, List<LedgerFact> facts) {
        this.clusterId = clusterId;
        this.currency = settings.currency();
        ReplayConfig config = settings.toReplayConfig(clusterId, settings.registeredAt());
        this.replay = new Replay(config);
        this.feed = new LedgerFeed(config.cluster().capacity());
        if (!offer(facts)) {
            throw new IllegalStateException("a fresh ledger refused facts");
        }
    }

    /**
     * Applies {@code newFacts} if all are later than every fact applied so far; returns false, changing nothing, if one
     * is not (the ledger must then be rebuilt).
     */
    boolean offer(List<LedgerFact> newFacts) {
        if (newFacts.isEmpty()) {
            return true;
        }
        List<LedgerFact> ordered = new ArrayList<>(newFacts);
        ordered.sort(LedgerFeed.ORDER);
        if (ordered.get(0).at() <= lastApplied) {
            return false;
        }
        List<LedgerEvent> events = new ArrayList<>(ordered.size());
        for (LedgerFact fact : ordered) {
            events.add(feed.next(fact));
        }
        events.sort(CanonicalOrder.COMPARATOR);
        for (LedgerEvent e : events) {
            replay.apply(e);
        }
        lastApplied = ordered.get(ordered.size() - 1).at();
        facts += ordered.size();
        return true;
    }

    /** The latest event time applied (the watermark), or {@code Long.MIN_VALUE} before the first fact. */
    public long watermark() {
        return lastApplied;
    }

    /** What the ledger says as of its last event (or its registration when it has none). */
    public LiveView view(long grantIntervalMs) {
        long at = replay.ledger().clock();
        List<TenantAccount> accounts = replay.ledger().accounts(at);
        return new LiveView(clusterId, Instant.ofEpochMilli(at), facts, grantIntervalMs,
                replay.ledger().capacity(), accounts, FairnessReport.ofPeriod(Chargeback.leaves(accounts)),
                TreeGrants.levels(replay.ledger(), at, grantIntervalMs, GRANTS),
                StatementView.of(replay.openStatement(at), StatementView.PROVISIONAL, currency), replay.statements(),
                currency);
    }
}
