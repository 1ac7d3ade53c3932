package io.fairledger.live;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.model.TenantPath;
import io.fairledger.facts.FactCursor;
import io.fairledger.facts.FreshFacts;
import io.fairledger.facts.LedgerFact;

/**
 * The facts each cluster's live ledger was given lately, held in event-time order, so a rebuild for a late fact
 * replays them from memory instead of reading them back from PostgreSQL (docs/architecture.md, "Recent facts").
 * <p>
 * A cluster's window holds, from its {@code fromMs} on, exactly the cluster's facts stored below a horizon (the fact
 * cursor's, {@link FactCursor}): a rebuild that read PostgreSQL from its checkpoint fills it with what it read
 * ({@link #replaySince}), and every tick after adds the facts stored from that horizon to its own ({@link #absorb}); a
 * tick from another horizon (one that failed half-way, say) lets the window go. A fact stored under the key of one
 * held replaced that row (an earlier start of the same task: the only row ever replaced), so the one held is let go.
 * At most {@code maxFacts} facts are held over all clusters (and a sixteenth more, so letting go is not a copy per
 * fact): beyond, the window added to lets go of its oldest instants, and a rebuild from a checkpoint before its start
 * reads PostgreSQL and fills it again. A window goes with its ledger ({@link #drop}: a failed update, quarantine); 0
 * holds nothing. The facts held share their tenant paths, application ids and a finish's task id with its start's
 * (about 300 bytes of heap a fact, {@code RecentFactsSize}). Used by the live ledgers' tick thread only.
 */
final class RecentFacts {

    private final long maxFacts;
    private final Map<String, Window> windows = new ConcurrentHashMap<>();
    private final AtomicLong held = new AtomicLong();
    /** The tenant paths and application ids the facts held share, at most {@value #MAX_SHARED} of each. */
    private final Map<TenantPath, TenantPath> tenants = new HashMap<>();
    private final Map<String, String> applications = new HashMap<>();
    private static final int MAX_SHARED = 100_000;

    RecentFacts(long maxFacts) {
        if (maxFacts < 0) {
            throw new IllegalArgumentException("recent facts must be >= 0, got " + maxFacts);
        }
        this.maxFacts = maxFacts;
    }

    /** How many facts are held, over all clusters. */
    long held() {
        return held.get();
    }

    /** Whether {@code clusterId}'s window is held through {@code horizon}. */
    boolean holdsThrough(String clusterId, String horizon) {
        Window w = windows.get(clusterId);
        return w != null && w.through.equals(horizon);
    }

    /** Lets go of {@code clusterId}'s window: the next rebuild reads PostgreSQL and fills it again. */
    void drop(String clusterId) {
        Window w = windows.remove(clusterId);
        if (w != null) {
            held.addAndGet(-w.facts.size());
        }
    }

    /**
     * Adds {@code facts}, every fact of {@code clusterId} stored by transactions in {@code [from, to)} (in event-time
     * order; none when none was), to its window, if it has one held through {@code from}; one held through another
     * horizon is let go.
     */
    void absorb(String clusterId, String from, String to, List<LedgerFact> facts) {
        Window w = windows.get(clusterId);
        if (w == null) {
            return;
        }
        if (!w.through.equals(from)) {
            drop(clusterId);
            return;
        }
        if (!facts.isEmpty()) {
            w.absorb(facts);
            w.trim();
        }
        w.through = to;
    }

    /**
     * Hands {@code sink}, in event-time order, every fact of {@code clusterId} at or after {@code fromMs} stored below
     * {@code horizon}: from its window when that holds them (true), else as {@code read} from PostgreSQL, filling the
     * window with them (false).
     */
    boolean replaySince(String clusterId, long fromMs, String horizon, FreshFacts.Read read,
            Consumer<LedgerFact> sink) throws SQLException {
        Window w = windows.get(clusterId);
        if (w != null && w.through.equals(horizon) && w.fromMs <= fromMs) {
            w.forEachSince(fromMs, sink);
            return true;
        }
        drop(clusterId);
        if (maxFacts == 0) {
            read.forEach(sink);
            return false;
        }
        Window filled = new Window(fromMs, horizon);
        windows.put(clusterId, filled);
        try {
            read.forEach(fact -> {
                filled.append(fact);
                filled.trim();
                sink.accept(fact);
            });
        } catch (SQLException | RuntimeException e) {
            drop(clusterId);
            throw e;
        }
        return false;
    }

    /** One cluster's facts from {@code fromMs} on. */
    private final class Window {
        /** Every fact stored below {@link #through} at or after it is held. */
        private long fromMs;
        /** The horizon the window is held through. */
        private String through;
        private List<LedgerFact> facts = new ArrayList<>();
        /** The task starts held, by key: a start stored again under the same key replaced the one held. */
        private final Map<String, LedgerFact> starts = new HashMap<>();

        Window(long fromMs, String through) {
            this.fromMs = fromMs;
            this.through = through;
        }

        void append(LedgerFact fact) {
            LedgerFact compact = compact(fact);
            facts.add(compact);
            index(compact);
            held.incrementAndGet();
        }

        /**
         * The fact sharing what it can with those held: a start's tenant and application, a finish's task id with its
         * start's (a fact decoded from its row has strings of its own: a third of its heap).
         */
        private LedgerFact compact(LedgerFact fact) {
            if (fact instanceof LedgerFact.Event e && e.event() instanceof LedgerEvent.TaskStarted s) {
                TenantPath tenant = shared(s.tenant());
                String application = shared(s.applicationId());
                if (tenant != s.tenant() || application != s.applicationId()) {
                    return new LedgerFact.Event(new LedgerEvent.TaskStarted(s.clusterId(), s.taskId(), tenant,
                            application, s.resources(), s.at()), e.dedupeKey());
                }
            } else if (fact instanceof LedgerFact.Event e && e.event() instanceof LedgerEvent.TaskFinished f
                    && starts.get(LedgerFact.taskKey(f.taskId(), true)) instanceof LedgerFact.Event held
                    && held.event() instanceof LedgerEvent.TaskStarted s && s.taskId() != f.taskId()) {
                return new LedgerFact.Event(new LedgerEvent.TaskFinished(f.clusterId(), s.taskId(), f.at()),
                        e.dedupeKey());
            }
            return fact;
        }

        private void index(LedgerFact fact) {
            if (isStart(fact)) {
                starts.put(fact.dedupeKey(), fact);
            }
        }

        void forEachSince(long fromMs, Consumer<LedgerFact> sink) {
            for (int i = firstAtOrAfter(fromMs); i < facts.size(); i++) {
                sink.accept(facts.get(i));
            }
        }

        /** Adds facts in event-time order: appended when none is earlier than the latest held, else merged once. */
        void absorb(List<LedgerFact> added) {
            Set<LedgerFact> replaced = Collections.newSetFromMap(new IdentityHashMap<>());
            List<LedgerFact> kept = new ArrayList<>(added.size());
            for (LedgerFact fact : added) {
                LedgerFact before = isStart(fact) ? starts.remove(fact.dedupeKey()) : null;
                if (before != null) {
                    replaced.add(before);
                }
                if (fact.at() >= fromMs) {
                    kept.add(compact(fact));
                }
            }
            boolean inOrder = facts.isEmpty() || kept.isEmpty() || kept.get(0).at() >= facts.get(facts.size() - 1).at();
            if (replaced.isEmpty() && inOrder) {
                facts.addAll(kept);
                kept.forEach(this::index);
                held.addAndGet(kept.size());
                return;
            }
            List<LedgerFact> merged = new ArrayList<>(facts.size() + kept.size());
            int k = 0;
            for (LedgerFact fact : facts) {
                for (; k < kept.size() && kept.get(k).at() < fact.at(); k++) {
                    merged.add(kept.get(k));
                }
                if (!replaced.contains(fact)) {
                    merged.add(fact);
                }
            }
            merged.addAll(kept.subList(k, kept.size()));
            held.addAndGet(merged.size() - facts.size());
            facts = merged;
            kept.forEach(this::index);
        }

        /** Lets go of the oldest instants while more than the bound is held, a sixteenth at a time. */
        void trim() {
            if (held.get() <= maxFacts + maxFacts / 16) {
                return;
            }
            int cut = (int) Math.min(facts.size(), held.get() - maxFacts);
            while (cut > 0 && cut < facts.size() && facts.get(cut).at() == facts.get(cut - 1).at()) {
                cut++;
            }
            if (cut == 0) {
                return;
            }
            List<LedgerFact> gone = facts.subList(0, cut);
            fromMs = cut < facts.size() ? facts.get(cut).at() : gone.get(cut - 1).at() + 1;
            for (LedgerFact fact : gone) {
                if (isStart(fact)) {
                    starts.remove(fact.dedupeKey(), fact);
                }
            }
            gone.clear();
            held.addAndGet(-cut);
        }

        /** The index of the first fact at or after {@code atMs} (the size when none is). */
        private int firstAtOrAfter(long atMs) {
            int low = 0;
            int high = facts.size();
            while (low < high) {
                int mid = (low + high) >>> 1;
                if (facts.get(mid).at() < atMs) {
                    low = mid + 1;
                } else {
                    high = mid;
                }
            }
            return low;
        }
    }

    /** The tenant path held equal to {@code tenant}, or it, from now on held (forgotten all at once when many). */
    private TenantPath shared(TenantPath tenant) {
        return share(tenants, tenant);
    }

    private String shared(String application) {
        return share(applications, application);
    }

    private static <T> T share(Map<T, T> shared, T value) {
        T held = shared.putIfAbsent(value, value);
        if (held != null) {
            return held;
        }
        if (shared.size() > MAX_SHARED) {
            shared.clear();
        }
        return value;
    }

    private static boolean isStart(LedgerFact fact) {
        return fact instanceof LedgerFact.Event e && e.event() instanceof LedgerEvent.TaskStarted;
    }
}
