package io.fairledger.accounting;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import io.fairledger.core.replay.ReplayResult;
import io.fairledger.errors.NotReady;
import io.fairledger.facts.LedgerFact;

/**
 * One what-if's replay: facts streamed in event-time order through a {@link StreamedReplay}, so the result equals
 * {@link Books#replay} of the same facts without holding them. Every {@value #CHECK_EVERY} facts, the first included, it looks at the deadline and whether the
 * caller is still there, and stops with {@link NotReady} (503 with {@code Retry-After}) when either says so.
 */
final class WhatIfReplay {

    /** Facts read between two looks at the deadline and the caller. */
    static final int CHECK_EVERY = 1_000;

    private final StreamedReplay replay;
    private final Duration deadline;
    private final long stopAtNanos;
    private final BooleanSupplier gone;

    /**
     * @param deadline
     *            how long it may take from now
     * @param gone
     *            whether the caller has gone (its connection closed)
     */
    WhatIfReplay(StreamedReplay replay, Duration deadline, BooleanSupplier gone) {
        this.replay = replay;
        this.deadline = deadline;
        this.stopAtNanos = System.nanoTime() + deadline.toNanos();
        this.gone = gone;
    }

    /** Takes the next fact in event-time order. */
    void accept(LedgerFact fact) {
        if (replay.factsRead() % CHECK_EVERY == 0) {
            stopIfDue();
        }
        replay.accept(fact);
    }

    /** The result at {@code until}: every period ending at or before it closed and stated. */
    ReplayResult finish(long until) {
        return replay.finish(until);
    }

    /** How many facts it has read. */
    long factsRead() {
        return replay.factsRead();
    }

    private void stopIfDue() {
        long read = replay.factsRead();
        if (gone.getAsBoolean()) {
            throw new NotReady("the what-if stopped after " + read + " facts: the client has gone");
        }
        if (System.nanoTime() - stopAtNanos > 0) {
            throw new NotReady("the what-if stopped after " + read + " facts: it took longer than its deadline of "
                    + deadline + " (fairledger.what-if.deadline); ask for a shorter window or retry later");
        }
    }
}
