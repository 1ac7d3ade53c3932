package io.fairledger.admission;

import java.util.List;

/**
 * What applying one row of the admission log did: the decisions, and why the row was refused when it was.
 *
 * @param position
 *            the row's position in the log
 * @param decisions
 *            every decision the row caused, in order
 * @param refusal
 *            why the row was refused, null when it was applied
 */
public record Applied(long position, List<DecisionEvent> decisions, Refusal refusal) {
}
