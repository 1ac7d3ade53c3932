package io.fairledger.facts;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * The facts this replica's consumer stored, by the transaction that stored them, held in memory until the live ledgers'
 * next tick takes them: that tick applies them as they are and reads from PostgreSQL only the facts of the other
 * transactions of its range (another replica's, an admin's, one let go here), so the facts this replica just wrote are
 * neither read back nor decoded (docs/architecture.md, "Live ledgers"). PostgreSQL stays the truth: a rebuild, a
 * restart and every other replica read the stored facts, and a transaction not held here is read from there.
 * <p>
 * A transaction is held only when it is handed over after its commit, with exactly the rows it added
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
        Map<String, List<LedgerFact>> byCluster = new HashMap<>();
        int i = 0;
        for (Map.Entry<Long, List<LedgerFact>> e : below.entrySet()) {
            transactions[i++] = e.getKey();
            held -= e.getValue().size();
            for (LedgerFact fact : e.getValue()) {
                byCluster.computeIfAbsent(fact.clusterId(), k -> new ArrayList<>()).add(fact);
            }
        }
        below.clear();
        byCluster.values().forEach(facts -> facts.sort(Comparator.comparingLong(LedgerFact::at)));
        return new Taken(transactions, byCluster);
    }

    /** How many facts are held now. */
    synchronized int held() {
        return held;
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
