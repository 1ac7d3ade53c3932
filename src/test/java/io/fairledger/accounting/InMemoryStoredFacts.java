package io.fairledger.accounting;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

import io.fairledger.core.chargeback.Statement;
import io.fairledger.core.replay.Checkpoint;
import io.fairledger.core.replay.Replay;
import io.fairledger.core.replay.ReplayConfig;
import io.fairledger.facts.LedgerFact;
import io.fairledger.facts.StoredTransaction;
import io.fairledger.tenancy.LedgerSettings;

/**
 * The period closer's stored facts in memory, for tests: the arrivals so far (a list the caller appends to, in position
 * order) and, optionally, checkpoints made as a live ledger makes them: at horizon {@code H}, holding every fact stored
 * before {@code H}, its last applied instant the latest of them. A checkpoint is usable for the facts stored up to
 * {@code p} when {@code H <= p + 1} and no fact stored in {@code [H, p]} is at or before that instant, as
 * {@code live.BoundedReplays} decides; it is handed out restored from its bytes ({@link Checkpoint}, {@link LedgerFeed}
 * written and read), so the closer continues a state that went through the codec. Each holds none of the statements of
 * the periods it closed (as a live ledger's once the closer stored them): it serves only periods it has not closed.
 */
public final class InMemoryStoredFacts implements PeriodCloser.StoredFacts {

    /**
     * A fact with the position (transaction) that stored it, the source it came from and when that transaction stored
     * it (the same for every fact of a transaction).
     */
    public record Arrival(long position, LedgerFact fact, String source, long arrivedAt) {

        /** From the one source {@value #SOURCE}, stored at instant 0: a source that is never idle. */
        public Arrival(long position, LedgerFact fact) {
            this(position, fact, SOURCE, 0);
        }
    }

    /** The source of arrivals that name none. */
    public static final String SOURCE = "events-0";

    private final String clusterId;
    private final List<Arrival> arrived;
    private final NavigableSet<Long> checkpointHorizons;
    private long statesUsed;
    private long transactionsRead;
    /** Whether {@link #held} answers, and how often it declines (a live ledger that released or lacks a period). */
    private Random holding;

    /**
     * @param arrived            the facts stored so far, in position order (read live: the caller may append)
     * @param checkpointHorizons the horizons at which checkpoints were made (none: always from the registration)
     */
    InMemoryStoredFacts(String clusterId, List<Arrival> arrived, NavigableSet<Long> checkpointHorizons) {
        this.clusterId = clusterId;
        this.arrived = arrived;
        this.checkpointHorizons = new TreeSet<>(checkpointHorizons);
    }

    @Override
    public void forEachTransactionAfter(long after, Consumer<StoredTransaction> sink) {
        int i = 0;
        while (i < arrived.size() && arrived.get(i).position() <= after) {
            i++;
        }
        while (i < arrived.size()) {
            transactionsRead++;
            long position = arrived.get(i).position();
            long arrivedAt = arrived.get(i).arrivedAt();
            Map<String, long[]> spans = new TreeMap<>();
            for (; i < arrived.size() && arrived.get(i).position() == position; i++) {
                long at = arrived.get(i).fact().at();
                spans.merge(arrived.get(i).source(), new long[]{at, at},
                        (x, y) -> new long[]{Math.min(x[0], y[0]), Math.max(x[1], y[1])});
            }
            List<StoredTransaction.Span> out = new ArrayList<>();
            spans.forEach((source, span) -> out.add(new StoredTransaction.Span(source, span[0], span[1])));
            sink.accept(new StoredTransaction(position, arrivedAt, out));
        }
    }

    @Override
    public void forEachStored(long position, long fromMs, long untilMs, Consumer<LedgerFact> sink) {
        storedBefore(position + 1).stream().filter(f -> f.at() >= fromMs && f.at() <= untilMs).forEach(sink);
    }

    @Override
    public Optional<StoredLedgerStates.State> newestState(LedgerSettings settings, long position, long fromEndMs) {
        long best = Long.MIN_VALUE;
        Long bestHorizon = null;
        for (long horizon : checkpointHorizons.headSet(position + 1, true)) {
            List<LedgerFact> held = storedBefore(horizon);
            if (held.isEmpty()) {
                continue;
            }
            long lastApplied = held.get(held.size() - 1).at();
            // its closed periods are released (below): it serves only periods it has not closed
            if (settings.schedule().periodOf(lastApplied).start() >= fromEndMs) {
                continue;
            }
            boolean lacking = arrived.stream().anyMatch(a -> a.position() >= horizon && a.position() <= position
                    && a.fact().at() <= lastApplied);
            if (!lacking && lastApplied > best) {
                best = lastApplied;
                bestHorizon = horizon;
            }
        }
        if (bestHorizon == null) {
            return Optional.empty();
        }
        statesUsed++;
        StoredLedgerStates.State state = restored(settings, storedBefore(bestHorizon));
        if (!state.replay().holdsClosedFrom(fromEndMs)) {
            throw new IllegalStateException("a state chosen lacks the periods ending from " + fromEndMs);
        }
        return Optional.of(state);
    }

    /**
     * From now on {@link #held} answers as a live ledger holding every fact stored so far would (its statements from
     * all of them, whatever their position), declining at random one time in four.
     */
    InMemoryStoredFacts holding(Random random) {
        this.holding = random;
        return this;
    }

    @Override
    public Optional<List<Statement>> held(LedgerSettings settings, long firstEnd, long through) {
        if (holding == null || holding.nextInt(4) == 0) {
            return Optional.empty();
        }
        StreamedReplay replay = StreamedReplay.fromRegistration(
                settings.toReplayConfig(clusterId, Instant.ofEpochMilli(through)));
        storedBefore(Long.MAX_VALUE).forEach(replay::accept);
        return Optional.of(replay.statementsThrough(through).stream().filter(s -> s.period().end() >= firstEnd)
                .toList());
    }

    /** How many transactions {@link #forEachTransactionAfter} handed out. */
    long transactionsRead() {
        return transactionsRead;
    }

    /** How many times a stored state was handed out. */
    long statesUsed() {
        return statesUsed;
    }

    /** The facts stored before {@code horizon}, in {@link LedgerFeed#ORDER}. */
    private List<LedgerFact> storedBefore(long horizon) {
        List<LedgerFact> out = new ArrayList<>();
        arrived.stream().filter(a -> a.position() < horizon).forEach(a -> out.add(a.fact()));
        out.sort(LedgerFeed.ORDER);
        return out;
    }

    /** The ledger state of {@code facts} as a live ledger builds it (one instant at a time), through the codec. */
    private StoredLedgerStates.State restored(LedgerSettings settings, List<LedgerFact> facts) {
        ReplayConfig config = settings.toReplayConfig(clusterId, settings.registeredAt());
        Replay replay = new Replay(config);
        LedgerFeed feed = new LedgerFeed(config.cluster().capacity());
        StreamedReplay building = new StreamedReplay(replay, feed);
        facts.forEach(building::accept);
        long lastApplied = facts.get(facts.size() - 1).at();
        // a live ledger has closed the periods ending by its latest fact, as applying that fact does
        building.finish(lastApplied);
        // as a live ledger's checkpoint once the closer has stored every period it closed, the harshest case
        replay.release(lastApplied);
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                feed.write(out);
            }
            LedgerFeed readFeed = LedgerFeed.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
            return new StoredLedgerStates.State(Checkpoint.fromBytes(config, Checkpoint.toBytes(replay)), readFeed,
                    lastApplied, facts.size());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
