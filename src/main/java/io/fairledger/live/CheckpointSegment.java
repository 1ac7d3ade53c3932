package io.fairledger.live;

import java.util.ArrayList;
import java.util.List;

import io.fairledger.core.replay.Checkpoint;
import io.fairledger.core.replay.ReplayConfig;
import io.fairledger.tenancy.LedgerSettings;

/**
 * The checkpoints of a cluster made in {@code [fromMs, untilMs)} are stored under {@code version}: that of the settings
 * known from {@code fromMs} on ({@link ReplayConfig#upTo}), the same before and after a change from a later instant.
 * So a checkpoint from before a settings change is still found, under its version, after the change.
 */
record CheckpointSegment(long fromMs, long untilMs, String version) {

    /** Whether {@code c} was made in this segment. */
    boolean holds(LedgerCheckpoints.Stored c) {
        return c.eventTimeMs() >= fromMs && c.eventTimeMs() < untilMs;
    }

    /** The segments of {@code settings}, oldest first; the first holds everything before the first change. */
    static List<CheckpointSegment> of(String clusterId, LedgerSettings settings) {
        ReplayConfig config = settings.toReplayConfig(clusterId, settings.registeredAt());
        List<Long> starts = config.versionStarts();
        List<CheckpointSegment> out = new ArrayList<>(starts.size());
        for (int i = 0; i < starts.size(); i++) {
            long from = starts.get(i);
            out.add(new CheckpointSegment(i == 0 ? Long.MIN_VALUE : from,
                    i + 1 < starts.size() ? starts.get(i + 1) : Long.MAX_VALUE,
                    Checkpoint.settingsVersion(config, from)));
        }
        return out;
    }
}
