package io.fairledger.facts;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The one duplicate rule of the ledger: of the facts sharing a cluster and a {@code dedupeKey}, the first one counts
 * and the others are the same report delivered again. {@code ledger_fact}'s primary key applies it to what is stored;
 * the fact writer applies it within a batch, and {@code fairledger account} to a whole file, so both keep the same
 * facts.
 */
public final class Dedupe {

    private Dedupe() {
    }

    /** The items whose fact is the first of its cluster and key, in their order. */
    public static <T> List<T> firstOfEachKey(List<T> items, Function<T, LedgerFact> fact) {
        Set<String> seen = new HashSet<>(items.size() * 2);
        List<T> out = new ArrayList<>(items.size());
        for (T item : items) {
            LedgerFact f = fact.apply(item);
            if (seen.add(f.clusterId() + '\n' + f.dedupeKey())) {
                out.add(item);
            }
        }
        return out;
    }
}
