package io.fairledger.accounting;

import io.fairledger.tenancy.LedgerSettings;
import io.fairledger.facts.LedgerFact;
import java.time.Instant;
import java.util.List;

import io.fairledger.core.replay.Replay;
import io.fairledger.core.replay.ReplayConfig;
import io.fairledger.core.replay.ReplayResult;

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

    /** The statements of every period closed by {@code until}. */
    public static List<StatementView> statements(String clusterId, LedgerSettings settings, List<LedgerFact> facts,
            Instant until) {
        return replay(clusterId, settings, facts, until).statements().stream().map(StatementView::of).toList();
    }
}
