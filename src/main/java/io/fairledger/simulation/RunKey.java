package io.fairledger.simulation;

/**
 * One cell of the simulation matrix.
 *
 * @param deadlines
 *            the deadline model's name, or {@code trace} when the trace's own deadlines are kept
 * @param capacity
 *            cluster CPUs
 * @param policy
 *            admission policy name as the command line spells it
 */
public record RunKey(String deadlines, int capacity, String policy) {
}
