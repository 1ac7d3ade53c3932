package io.fairledger.accounting;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.fairledger.core.ledger.LedgerCodec;
import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;
import io.fairledger.core.replay.CanonicalOrder;
import io.fairledger.core.replay.Replay;
import io.fairledger.facts.LedgerFact;

/**
 * Turns stored facts into the core's ledger events, in event-time order, for {@link io.fairledger.core.replay.Replay}.
 * Stateful facts are resolved here: a cluster's capacity is its registration capacity plus every node that joined
 * minus every node that left (a totals report replaces all of it). An application's demand report becomes the core's
 * per-application demand change (the ledger sums a tenant's applications, so simultaneous reports commute). Facts at the same instant are taken in order of their dedupe key, so the result does not
 * depend on arrival order.
 */
public final class LedgerFeed {

    /** The order facts are fed in: event time, then dedupe key. */
    public static final Comparator<LedgerFact> ORDER = Comparator.comparingLong(LedgerFact::at)
            .thenComparing(LedgerFact::dedupeKey);

    private ResourceVector base;
    private final Map<String, ResourceVector> nodes = new HashMap<>();

    /** A feed for a cluster registered with {@code registrationCapacity}; facts go in {@link #ORDER}. */
    public LedgerFeed(ResourceVector registrationCapacity) {
        this.base = registrationCapacity;
    }

    /** The ledger events of {@code facts} (any order), given the capacity at registration. */
    public static List<LedgerEvent> events(List<LedgerFact> facts, ResourceVector registrationCapacity) {
        List<LedgerFact> ordered = new ArrayList<>(facts);
        ordered.sort(ORDER);
        LedgerFeed feed = new LedgerFeed(registrationCapacity);
        List<LedgerEvent> out = new ArrayList<>(ordered.size());
        for (LedgerFact fact : ordered) {
            out.add(feed.next(fact));
        }
        return out;
    }

    /**
     * Applies {@code facts} (any order, none before the facts fed so far) to {@code replay}: each through this feed in
     * {@link #ORDER}, their events in {@link CanonicalOrder}, as the replay of every fact at once applies them.
     */
    public void apply(List<LedgerFact> facts, Replay replay) {
        List<LedgerFact> ordered = new ArrayList<>(facts);
        ordered.sort(ORDER);
        List<LedgerEvent> events = new ArrayList<>(ordered.size());
        for (LedgerFact fact : ordered) {
            events.add(next(fact));
        }
        events.sort(CanonicalOrder.COMPARATOR);
        for (LedgerEvent e : events) {
            replay.apply(e);
        }
    }

    /** The ledger event of the next fact in {@link #ORDER}. */
    public LedgerEvent next(LedgerFact fact) {
        if (fact instanceof LedgerFact.Event e) {
            if (e.event() instanceof LedgerEvent.CapacityChanged totals) {
                base = totals.capacity();
                nodes.clear();
            }
            return e.event();
        } else if (fact instanceof LedgerFact.NodeCapacity n) {
            if (n.capacity().isZero()) {
                nodes.remove(n.node());
            } else {
                nodes.put(n.node(), n.capacity());
            }
            return new LedgerEvent.CapacityChanged(n.clusterId(), sum(base, nodes.values()), n.at());
        } else {
            LedgerFact.Demand d = (LedgerFact.Demand) fact;
            return new LedgerEvent.DemandChanged(d.clusterId(), TenantPath.parse(d.tenant()), d.applicationId(),
                    d.pending(), d.at());
        }
    }

    private static ResourceVector sum(ResourceVector start, Iterable<ResourceVector> parts) {
        ResourceVector total = start;
        for (ResourceVector v : parts) {
            total = total.plus(v);
        }
        return total;
    }

    /** The feed's state (the capacity base and every node's capacity, by node), for a checkpoint of its ledger. */
    public void write(DataOutput out) throws IOException {
        LedgerCodec.writeVector(out, base);
        Map<String, ResourceVector> byNode = new TreeMap<>(nodes);
        out.writeInt(byNode.size());
        for (Map.Entry<String, ResourceVector> e : byNode.entrySet()) {
            LedgerCodec.writeString(out, e.getKey());
            LedgerCodec.writeVector(out, e.getValue());
        }
    }

    /** The feed {@link #write} wrote, ready for the facts after it. */
    public static LedgerFeed read(DataInput in) throws IOException {
        return read(in, 1);
    }

    /**
     * The feed an older {@link #write} wrote, ready for the facts after it; its memory amounts multiplied by {@code memoryScale}
     * ({@link LedgerCodec#read(DataInput, long)}).
     */
    public static LedgerFeed read(DataInput in, long memoryScale) throws IOException {
        LedgerFeed feed = new LedgerFeed(LedgerCodec.readVector(in, memoryScale));
        int count = in.readInt();
        for (int i = 0; i < count; i++) {
            feed.nodes.put(LedgerCodec.readString(in), LedgerCodec.readVector(in, memoryScale));
        }
        return feed;
    }
}
