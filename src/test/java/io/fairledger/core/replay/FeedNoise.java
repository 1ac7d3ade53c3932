package io.fairledger.core.replay;

import java.util.List;
import java.util.Random;

import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.ledger.RandomStreams;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;

/**
 * What real feeds carry besides a clean stream, for the replay properties: demand of several applications of one tenant
 * at one instant, a second start of a running task, finishes of unknown tasks, and late copies of earlier events (the
 * ledger rejects those; their count is state too).
 */
final class FeedNoise {

    private FeedNoise() {
    }

    /**
     * {@code events} (a random stream of {@code count} events from {@code seed}, not empty) with about a tenth more of
     * such events, in canonical order but for the late copies; {@code events} itself is extended and returned.
     */
    static List<LedgerEvent> addedTo(List<LedgerEvent> events, long seed, int count) {
        Random rnd = new Random(seed * 31 + 7);
        int extra = 1 + count / 10;
        for (int i = 0; i < extra; i++) {
            LedgerEvent base = events.get(rnd.nextInt(events.size()));
            String leaf = RandomStreams.LEAVES.get(rnd.nextInt(RandomStreams.LEAVES.size()));
            switch (rnd.nextInt(3)) {
                case 0 -> {
                    for (String app : List.of("x1", "x2")) {
                        events.add(new LedgerEvent.DemandChanged("c", TenantPath.parse(leaf), app,
                                ResourceVector.of(rnd.nextInt(4), 512L * rnd.nextInt(3), 0), base.at()));
                    }
                }
                case 1 -> events.add(base instanceof LedgerEvent.TaskStarted s
                        ? new LedgerEvent.TaskStarted("c", s.taskId(), s.tenant(), s.applicationId(),
                                ResourceVector.of(1, 0, 0), s.at() + rnd.nextInt(500))
                        : new LedgerEvent.TaskFinished("c", "never-started-" + i, base.at()));
                default -> events.add(new LedgerEvent.TaskFinished("c", "unknown-" + i, base.at()));
            }
        }
        events.sort(CanonicalOrder.COMPARATOR);
        for (int i = 0; i < extra; i++) {
            int from = rnd.nextInt(events.size());
            int to = Math.min(events.size(), from + 1 + rnd.nextInt(20));
            events.add(to, events.get(from));
        }
        return events;
    }
}
