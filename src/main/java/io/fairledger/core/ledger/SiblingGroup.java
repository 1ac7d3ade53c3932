package io.fairledger.core.ledger;

/**
 * The lending pool among the children of one tree node (siblings compete for their parent's share, docs/domain.md
 * section 2). Keeps {@code B = sum b_k}, {@code U = sum u_k} of the current rates and two global accumulators over
 * time:
 *
 * <pre>
 *   K_lend(t)   = integral of min(B, U) / U dt      (0 while U = 0)
 *   K_borrow(t) = integral of min(B, U) / B dt      (0 while B = 0)
 * </pre>
 *
 * A child's {@code u_k} and {@code b_k} only change at its own events, so between two of them its lent integral grows
 * by exactly {@code u_k * (K_lend(t1) - K_lend(t0))} and its borrowed-from-siblings integral by
 * {@code b_k * (K_borrow(t1) - K_borrow(t0))}: each child is advanced lazily, in O(1), however often its siblings
 * change. Summed over the group both grow by {@code integral of min(B, U) dt}, so the lending balances of the group
 * sum to zero at every instant.
 *
 * <p>
 * Decision: docs/domain.md section 2 matches both sides; the simpler {@code lent_i = u_i B / U} relies on
 * {@code B <= U}. That holds among the root's children for one resource, but not with dominant shares over several
 * resources nor below a parent that itself borrows. We use {@code min(B, U)}: what siblings lend each other; the excess
 * {@code B - U} is borrowed by the parent from its own siblings, one level up.
 *
 * <p>
 * {@code B} and {@code U} are kept by adding differences, which drifts in floating point; they are recomputed exactly
 * from the children every {@code children} updates, O(1) amortised.
 */
final class SiblingGroup {

    double borrowedSum;
    double unusedSum;
    long last;
    double kLend;
    double kBorrow;
    int updatesSinceRecompute;

    SiblingGroup(long start) {
        this.last = start;
    }

    private double lendRatio() {
        return unusedSum > Accuracy.EPSILON ? Math.min(borrowedSum, unusedSum) / unusedSum : 0;
    }

    private double borrowRatio() {
        return borrowedSum > Accuracy.EPSILON ? Math.min(borrowedSum, unusedSum) / borrowedSum : 0;
    }

    /** Moves the accumulators to {@code t}; the rates B, U have been constant since {@link #last}. */
    void advance(long t) {
        long dt = t - last;
        if (dt > 0) {
            kLend += lendRatio() * dt;
            kBorrow += borrowRatio() * dt;
            last = t;
        }
    }

    /** K_lend at {@code t >= last} without moving. */
    double kLendAt(long t) {
        return kLend + lendRatio() * (t - last);
    }

    /** K_borrow at {@code t >= last} without moving. */
    double kBorrowAt(long t) {
        return kBorrow + borrowRatio() * (t - last);
    }
}
