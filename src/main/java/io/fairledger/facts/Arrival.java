package io.fairledger.facts;

/**
 * A stored fact with the position at which it arrived: the id of the transaction that stored it. Transactions below
 * the cursor's horizon are final ({@link FactCursor}), so the arrivals below a horizon, in position order, are the
 * same sequence for every replica and every restart: the order in which the books learned of each fact.
 *
 * @param position the storing transaction's id ({@code xid8}, as a number)
 * @param fact     the fact
 */
public record Arrival(long position, LedgerFact fact) {
}
