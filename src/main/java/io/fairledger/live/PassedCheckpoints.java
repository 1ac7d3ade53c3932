package io.fairledger.live;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The checkpoints one update of a cluster's ledger passed ({@link BoundedReplays#build},
 * {@link BoundedReplays#advance}), each encoded when the ledger passed it and stored by {@link #store} once the caller
 * has published the updated view, so a late fact's grants do not wait for the writes (docs/benchmarks.md), and before
 * it updates the ledger again or closes periods. Beyond {@value BoundedReplays#PASSED_BYTES} bytes those held are
 * stored at once. A server stopped before they are stored loses nothing but them; one not stored is logged. Not
 * thread-safe: one update, one thread.
 * <p>
 * Before each checkpoint the ledger releases the statements of the periods the closer has stored
 * ({@link LiveLedger#release}; the end of the last is asked once per update), so that a checkpoint holds only the
 * periods not closed yet, whichever checkpoint a rebuild started from (docs/architecture.md, "Checkpoints").
 */
public final class PassedCheckpoints {

    /** A checkpoint encoded, not yet stored. */
    record Taken(String version, LedgerCheckpoints.Stored stored, String openPeriod, byte[] state) {
    }

    private final BoundedReplays replays;
    private final String clusterId;
    private final Supplier<Instant> closedUntil;
    private final List<Taken> taken = new ArrayList<>();
    private long bytes;
    private Instant released;
    private boolean asked;

    PassedCheckpoints(BoundedReplays replays, String clusterId, Supplier<Instant> closedUntil) {
        this.replays = replays;
        this.clusterId = clusterId;
        this.closedUntil = closedUntil;
    }

    String clusterId() {
        return clusterId;
    }

    /** Encodes a checkpoint of {@code ledger}, labelled with its open period, to store later. */
    void take(LiveLedger ledger, String horizon) {
        if (!asked) {
            released = closedUntil.get();
            asked = true;
        }
        ledger.release(released);
        byte[] state = replays.encode(clusterId, ledger);
        if (bytes + state.length > BoundedReplays.PASSED_BYTES) {
            store();
        }
        taken.add(new Taken(ledger.settingsVersion(), new LedgerCheckpoints.Stored(ledger.lastApplied(), horizon,
                ledger.facts()), ledger.openPeriod(), state));
        bytes += state.length;
    }

    /** Stores the checkpoints taken, oldest first; each one that cannot be is logged. */
    public void store() {
        taken.forEach(t -> replays.save(clusterId, t));
        taken.clear();
        bytes = 0;
    }
}
