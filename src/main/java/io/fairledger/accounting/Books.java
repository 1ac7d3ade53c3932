package io.fairledger.accounting;

import java.time.Instant;
import java.util.List;

import io.fairledger.core.replay.Replay;
import io.fairledger.core.replay.ReplayConfig;
import io.fairledger.core.replay.ReplayResult;
import io.fairledger.facts.LedgerFact;
import io.fairledger.tenancy.LedgerSettings;

/**
 * A cluster's books from its facts: the one path from stored facts to statements that the server's statements
 * endpoint and {@code fairledger account} both take (facts, then {@link LedgerFeed}, then the core's {@link Replay}).
 */
public final class Books {

    private Books() {
    }

    /** Replays {@code facts} under {@code settings} up to {@code until}. */
    public static ReplayResult replay(String clusterId, LedgerSettings settings, List<LedgerFact> facts,
            Instant until) {
        ReplayConfig config = settings.toReplayConfig(clusterId, until);
        return Replay.run(config, LedgerFeed.events(facts, config.cluster().capacity()));
    }

    /**
     * The statements of every period ended by {@code until}, as the facts say now: a period is {@code closed} when the
     * latest fact is at or after its end plus the allowed lateness (the rule the server closes periods by, {@link
     * PeriodCloser}), else {@code provisional}.
     */
    public static List<StatementView> statements(String clusterId, LedgerSettings settings, List<LedgerFact> facts,
            Instant until) {
        return views(settings, facts, replay(clusterId, settings, facts, until));
    }

    private static List<StatementView> views(LedgerSettings settings, List<LedgerFact> facts, ReplayResult result) {
        long watermark = facts.stream().mapToLong(LedgerFact::at).max().orElse(Long.MIN_VALUE);
        long lateness = settings.lateness().toMillis();
        String currency = settings.currency();
        return result.statements().stream()
                .map(s -> StatementView.of(s, s.period().end() + lateness <= watermark
                        ? StatementView.CLOSED
                        : StatementView.PROVISIONAL, currency))
                .toList();
    }
}
