package io.fairledger.accounting;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The JSON texts of closed statements already read, by cluster and period, so that {@code GET .../statements} reads
 * each from PostgreSQL once: a closed statement is inserted once and never changes ({@link ClosedStatementTable}), so a
 * text read once stays right. Bounded by {@code fairledger.statements.closed-cache} bytes in all: a text that would
 * pass the bound is not kept (it is read again on each request); nothing is evicted, since the periods read are
 * mostly the same ones request after request.
 */
final class ClosedJsonCache {

    private final long capacityBytes;
    private final AtomicLong heldBytes = new AtomicLong();
    private final Map<String, Map<String, byte[]>> byCluster = new ConcurrentHashMap<>();

    /** A cache holding at most {@code capacityBytes} of text; 0 holds none. */
    ClosedJsonCache(long capacityBytes) {
        this.capacityBytes = capacityBytes;
    }

    /**
     * The closed statements of {@code clusterId} ({@code reads}) ending after {@code afterMs} and at or before
     * {@code endMs}, the first {@code limit} in period order, each with its JSON text: held ones from here (PostgreSQL
     * does not read them), the others as read, then held if the bound allows it.
     */
    List<ClosedStatementReads.ApiJson> texts(String clusterId, ClosedStatementReads reads, long afterMs, long endMs,
            int limit) {
        List<ClosedStatementReads.ApiJson> out = new ArrayList<>();
        for (ClosedStatementReads.ApiJson c : reads.apiJson(afterMs, endMs, limit, periodsOf(clusterId))) {
            if (c.text() == null) {
                out.add(new ClosedStatementReads.ApiJson(c.period(), c.end(), get(clusterId, c.period())));
            } else {
                put(clusterId, c.period(), c.text());
                out.add(c);
            }
        }
        return out;
    }

    /** The periods of {@code clusterId} whose text is held. */
    Set<String> periodsOf(String clusterId) {
        return texts(clusterId).keySet();
    }

    /** The text of {@code period} of {@code clusterId}; null when not held. */
    byte[] get(String clusterId, String period) {
        return texts(clusterId).get(period);
    }

    /** Keeps {@code text} of {@code period} of {@code clusterId} if the bound allows it. */
    void put(String clusterId, String period, byte[] text) {
        if (heldBytes.addAndGet(text.length) > capacityBytes
                || texts(clusterId).putIfAbsent(period, text) != null) {
            heldBytes.addAndGet(-text.length);
        }
    }

    /** The bytes of text held. */
    long heldBytes() {
        return heldBytes.get();
    }

    private Map<String, byte[]> texts(String clusterId) {
        return byCluster.computeIfAbsent(clusterId, c -> new ConcurrentHashMap<>());
    }
}
