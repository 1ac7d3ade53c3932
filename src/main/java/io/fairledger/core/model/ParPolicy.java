package io.fairledger.core.model;

/**
 * Early-bird privilege rule (docs/domain.md section 5, LTRF eq. 10 and 16, Tang et al., 2014): the one-time top-up
 * {@code phi} a tenant receives when it becomes active after the period (round) started, taken over its earlier-arrived
 * active siblings' {@code F + phi}.
 */
public enum ParPolicy {
    /** The paper's rule: the maximum. A late tenant gets no catch-up. */
    MAX,
    /** The minimum: no catch-up beyond the least-served earlier tenant, no penalty. */
    MIN,
    /** No top-up: full catch-up. */
    ZERO
}
