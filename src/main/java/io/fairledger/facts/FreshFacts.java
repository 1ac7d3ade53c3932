package io.fairledger.facts;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * The facts this replica's consumer stored, by the transaction that stored them, held in memory until the live ledgers'
 * next tick takes them: that tick applies them as they are and reads from PostgreSQL only the facts of the other
 * transactions of its range (another replica's, an admin's, one let go here), so the facts this replica just wrote are
 * neither read back nor decoded (docs/architecture.md, "Live ledgers"). PostgreSQL stays the truth: a rebuild, a
 * restart and every other replica read the stored facts, and a transaction not held here is read from there.
 * <p>
 * A key taken twice keeps the fact of the later transaction, which replaced the earlier row (an earlier start of the
 * same task). A transaction is held only when it is handed over after its commit, with exactly the rows it added
 * ({@link FactWriter#insert(java.sql.Connection, List, java.util.function.Consumer)}), and only while it is at or above
 * the horizon of the last take: one committed after a tick passed its horizon was read from PostgreSQL by that tick, so
 * it is let go. At most {@value #MAX_FACTS} facts are held (ticks stalled by a rebuild, ledgers not loaded yet):
 * beyond, the oldest transactions are let go, and read from PostgreSQL when their turn comes.
 */
@ApplicationScoped
public class FreshFacts {

    /** The most facts held: about 30 MB, five ticks' worth at 20,000 facts a second. */
    static final int MAX_FACTS = 100_000;

    private final TreeMap<Long, List<LedgerFact>> byTransaction = new TreeMap<>();
    private final int maxFacts;
    private int held;
    /** The horizon of the last take: a transaction below it is not held again. */
    private long floor = Long.MIN_VALUE;

    public FreshFacts() {
        this(MAX_FACTS);
    }

    FreshFacts(int maxFacts) {
        this.maxFacts = maxFacts;
    }

    /**
     * Holds {@code facts}, every row that transaction {@code transaction} added to {@code ledger_fact}, once it is
     * committed; ignored when a tick already passed it.
     */
    public synchronized void stored(long transaction, List<LedgerFact> facts) {
        if (transaction < floor || facts.isEmpty()) {
            return;
        }
        List<LedgerFact> before = byTransaction.put(transaction, facts);
        held += facts.size() - (before == null ? 0 : before.size());
        while (held > maxFacts) {
            held -= byTransaction.pollFirstEntry().getValue().size();
        }
    }

    /**
     * Takes every transaction held below the horizon {@code to} (transaction ids as PostgreSQL prints them): from now
     * on none below it is held.
     */
    public synchronized Taken take(String to) {
        long horizon = Long.parseLong(to);
        floor = Math.max(floor, horizon);
        Map<Long, List<LedgerFact>> below = byTransaction.headMap(horizon);
        if (below.isEmpty()) {
            return Taken.NONE;
        }
        long[] transactions = new long[below.size()];
        // a key stored again by a later transaction replaced the earlier row (an earlier start of the same task,
        // FactWriter): the later one is the stored fact
        Map<String, Map<String, LedgerFact>> byKey = new HashMap<>();
        int i = 0;
        for (Map.Entry<Long, List<LedgerFact>> e : below.entrySet()) {
            transactions[i++] = e.getKey();
            held -= e.getValue().size();
            for (LedgerFact fact : e.getValue()) {
                byKey.computeIfAbsent(fact.clusterId(), k -> new HashMap<>()).put(fact.dedupeKey(), fact);
            }
        }
        below.clear();
        Map<String, List<LedgerFact>> byCluster = new HashMap<>();
        byKey.forEach((cluster, facts) -> {
            List<LedgerFact> ordered = new ArrayList<>(facts.values());
            ordered.sort(Comparator.comparingLong(LedgerFact::at));
            byCluster.put(cluster, ordered);
        });
        return new Taken(transactions, byCluster);
    }

    /** How many facts are held now. */
    synchronized int held() {
        return held;
    }

    /** The facts of a cluster read from PostgreSQL, in event-time order, handed to a sink as read. */
    public interface Read {
        void forEach(Consumer<LedgerFact> sink) throws SQLException;
    }

    /** How many facts a {@link Taken#merge} handed over from memory and from what was read. */
    public record Merged(long fromMemory, long read) {
    }

    /**
     * What a tick took: the transactions (ascending), whose facts it must not read from PostgreSQL, and their facts by
     * cluster in event-time order.
     */
    public record Taken(long[] transactions, Map<String, List<LedgerFact>> byCluster) {

        /** Nothing taken. */
        public static final Taken NONE = new Taken(new long[0], Map.of());

        /** The facts taken of {@code clusterId}, in event-time order; empty when none. */
        public List<LedgerFact> of(String clusterId) {
            return byCluster.getOrDefault(clusterId, List.of());
        }

        /** The earliest event time of the facts taken of {@code clusterId}, or null when none. */
        public Long earliest(String clusterId) {
            List<LedgerFact> facts = of(clusterId);
            return facts.isEmpty() ? null : facts.get(0).at();
        }

        /**
         * Hands {@code sink} the facts taken of {@code clusterId} merged in event-time order with those {@code read}
         * gives (read from PostgreSQL without the taken transactions, in event-time order). A fact taken whose key is
         * also read is left out: another transaction stored an earlier start of its task, deleting this replica's row
         * (so the one read comes first), and the one read is the stored fact.
         */
        public Merged merge(String clusterId, Read read, Consumer<LedgerFact> sink) throws SQLException {
            List<LedgerFact> held = of(clusterId);
            Set<String> readKeys = new HashSet<>();
            long[] counts = {0, 0};
            Consumer<LedgerFact> fromMemory = fact -> {
                if (readKeys.isEmpty() || !readKeys.contains(fact.dedupeKey())) {
                    sink.accept(fact);
                    counts[0]++;
                }
            };
            int[] next = {0};
            read.forEach(fact -> {
                for (; next[0] < held.size() && held.get(next[0]).at() <= fact.at(); next[0]++) {
                    fromMemory.accept(held.get(next[0]));
                }
                readKeys.add(fact.dedupeKey());
                sink.accept(fact);
                counts[1]++;
            });
            held.subList(next[0], held.size()).forEach(fromMemory);
            return new Merged(counts[0], counts[1]);
        }

        /** The transactions as a PostgreSQL array literal, {@code {1,2}} ({@code {}} when none). */
        public String transactionArray() {
            StringBuilder out = new StringBuilder("{");
            for (long tx : transactions) {
                out.append(out.length() > 1 ? "," : "").append(tx);
            }
            return out.append('}').toString();
        }
    }
}
