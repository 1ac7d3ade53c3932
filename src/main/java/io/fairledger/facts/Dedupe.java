package io.fairledger.facts;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.fairledger.core.ledger.LedgerEvent;

/**
 * The one duplicate rule of the ledger. Facts sharing a cluster and a {@code dedupeKey} are one report delivered
 * more than once, and one of them is kept:
 * <ul>
 * <li>for a task start ({@code task:<id>:start}), the <em>earliest</em> one ({@link #replaces}): a resource manager
 * reports a task's start several times (YARN ALLOCATED then RUNNING, Mesos STAGING then RUNNING), and the task holds
 * its resources from the first of them, whichever of the reports arrives first;</li>
 * <li>for every other fact, the first one (the same event id redelivered).</li>
 * </ul>
 * {@code ledger_fact_key}'s primary key and {@link FactWriter} apply it to what is stored, the fact writer within
 * a batch, and {@code fairledger account} to a whole file, so all keep the same facts whatever the arrival order. The
 * fact writer asks PostgreSQL which stored starts a start replaces with {@link #SQL_REPLACES}, the same rule in SQL.
 */
public final class Dedupe {

    /**
     * {@link #replaces} in SQL, for two task starts {@code s} (the candidate) and {@code f} (the kept one), each with
     * the columns {@code event_time_ms} and {@code fact} (its encoding): earlier, or at the same instant first in the
     * byte order of the UTF-8 text ({@code COLLATE "C"}, whatever the database's collation), which is code-point
     * order. {@code DedupeSqlTest} checks on PostgreSQL that it orders as {@link #replaces} does.
     */
    static final String SQL_REPLACES = "(s.event_time_ms < f.event_time_ms OR (s.event_time_ms = f.event_time_ms "
            + "AND s.fact COLLATE \"C\" < f.fact COLLATE \"C\"))";

    private Dedupe() {
    }

    /** The kept item of each cluster and key, at the place of the key's first item. */
    public static <T> List<T> keptOfEachKey(List<T> items, Function<T, LedgerFact> fact) {
        Map<String, Integer> slot = new HashMap<>(items.size() * 2);
        List<T> out = new ArrayList<>(items.size());
        for (T item : items) {
            LedgerFact f = fact.apply(item);
            Integer at = slot.putIfAbsent(f.clusterId() + '\n' + f.dedupeKey(), out.size());
            if (at == null) {
                out.add(item);
            } else if (replaces(f, fact.apply(out.get(at)))) {
                out.set(at, item);
            }
        }
        return out;
    }

    /**
     * Whether {@code candidate} replaces {@code kept}, a fact with the same key: only a task start does, when it is
     * earlier, or at the same instant when its stored encoding ({@link FactCodec#encode}) comes first in code-point
     * order ({@link #SQL_REPLACES} in SQL), so that the result never depends on which arrived first.
     */
    public static boolean replaces(LedgerFact candidate, LedgerFact kept) {
        if (!isTaskStart(candidate) || !isTaskStart(kept)) {
            return false;
        }
        if (candidate.at() != kept.at()) {
            return candidate.at() < kept.at();
        }
        if (candidate.equals(kept)) {
            // equal facts encode alike (the usual case: a YARN finish repeating its start), so neither comes first
            return false;
        }
        return compareCodePoints(FactCodec.encode(candidate), FactCodec.encode(kept)) < 0;
    }

    private static boolean isTaskStart(LedgerFact fact) {
        return fact instanceof LedgerFact.Event e && e.event() instanceof LedgerEvent.TaskStarted;
    }

    private static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
