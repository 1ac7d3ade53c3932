package io.fairledger.facts;

/**
 * One transaction that stored facts of a cluster, without the facts: its position and the span of their event times.
 * Transactions below the cursor's horizon are final ({@link FactCursor}), so the transactions below a horizon, in
 * position order, are the same sequence for every replica and every restart: the order in which the books learned of
 * the facts.
 *
 * @param position the transaction's id ({@code xid8}, as a number)
 * @param earliest the earliest event time among the facts it stored
 * @param latest   the latest event time among the facts it stored
 */
public record StoredTransaction(long position, long earliest, long latest) {
}
