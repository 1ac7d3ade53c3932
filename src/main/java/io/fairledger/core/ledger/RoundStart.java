package io.fairledger.core.ledger;

import java.util.List;

import io.fairledger.core.model.MemoryMode;

/**
 * The start of a round under ROUNDS (S-LTMM, LTRF eqs. 12-14, Tang et al., 2014), before anything at an instant of
 * the new round is applied: every node is advanced to the round start {@code R} (its memory integrals, early-bird
 * top-up {@code phi} and arrival restart there, a node active at {@code R} arriving at {@code R}), then every lending
 * pool starts again from zero ({@code K_lend = K_borrow = 0}, each node's seen values 0, {@code B, U} summed afresh
 * from the children).
 *
 * <p>
 * Why: the lending integrals only ever use differences of {@code K}, so restarting them changes no value beyond
 * floating-point rounding; but it makes the state at a round start a function of what holds across the boundary
 * (holdings, demand, tasks, quanta, capacity, tree) and of the weights and discount rates, with no trace of how the
 * weights were before. That is what lets a what-if that changes weights or discount rates start at the round
 * ({@link Reweighting}) and still equal the replay from the registration exactly. O(tenants), once per round.
 */
final class RoundStart {

    private RoundStart() {
    }

    /**
     * The start of the round containing {@code t} when the ledger clock {@code clock} is still in an earlier round
     * under {@code memory}; {@code clock} otherwise (also when not under ROUNDS).
     */
    static long after(MemoryMode memory, long clock, long t) {
        if (memory instanceof MemoryMode.Rounds rounds) {
            return Math.max(clock, rounds.startOf(rounds.roundOf(t)));
        }
        return clock;
    }

    /** Restarts the lending pool of every node of {@code ordered}, each already advanced to {@code start}. */
    static void restartPools(List<TenantNode> ordered, long start) {
        for (TenantNode n : ordered) {
            SiblingGroup g = n.childGroup;
            g.kLend = 0;
            g.kBorrow = 0;
            g.last = start;
            n.acc.kLendSeen = 0;
            n.acc.kBorrowSeen = 0;
            NodeRates.resum(n);
        }
    }
}
