package io.fairledger.facts;

import java.util.List;

/**
 * One transaction that stored facts of a cluster, without the facts: its position, when it stored them, and the span of
 * their event times per source. Transactions below the cursor's horizon are final ({@link FactCursor}), so the
 * transactions below a horizon, in position order, are the same sequence for every replica and every restart: the
 * order in which the books learned of the facts.
 *
 * @param position  the transaction's id ({@code xid8}, as a number)
 * @param arrivedAt when it stored them, in epoch milliseconds ({@code ingested_at}: the transaction's start, the same
 *                  for all its facts, stored with them, so every replica reads the same)
 * @param spans     per source it stored facts from, the span of their event times, ordered by source
 */
public record StoredTransaction(long position, long arrivedAt, List<Span> spans) {

    /**
     * The facts of one source in one transaction.
     *
     * @param source   the Kafka topic partition they came from ({@link #source})
     * @param earliest the earliest event time among them
     * @param latest   the latest event time among them
     */
    public record Span(String source, long earliest, long latest) {
    }

    public StoredTransaction {
        spans = List.copyOf(spans);
        if (spans.isEmpty()) {
            throw new IllegalArgumentException("a stored transaction stored facts of at least one source");
        }
    }

    /** The name of a source: the topic and partition as Kafka names them, {@code fairledger.events-3}. */
    public static String source(String topic, int partition) {
        return topic + "-" + partition;
    }

    /** The earliest event time among the facts it stored. */
    public long earliest() {
        return spans.stream().mapToLong(Span::earliest).min().orElseThrow();
    }

    /** The latest event time among the facts it stored. */
    public long latest() {
        return spans.stream().mapToLong(Span::latest).max().orElseThrow();
    }
}
