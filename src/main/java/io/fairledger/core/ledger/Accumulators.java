package io.fairledger.core.ledger;

/**
 * The time integrals of one tree node, valid up to {@link #last}. Two families (docs/domain.md sections 3 and 4):
 * <ul>
 * <li>period integrals, for the bill: plain integrals since the open period started, never decayed, reset when a
 * period is closed;</li>
 * <li>memory integrals, for scheduling values and the live fairness degree: per the cluster's memory mode (since
 * registration, since the round started, or decayed), plus the early-bird top-up {@code phi}.</li>
 * </ul>
 * Integrals of shares are in capacity-milliseconds (share x ms); resource integrals are exact units x ms.
 */
final class Accumulators {

    long last;
    // period integrals
    double actual;
    double counted;
    double entitled;
    double demand;
    double borrowedRaw;
    double lent;
    double borrowedFromSiblings;
    Int128[] resourceMs = {new Int128(), new Int128(), new Int128()};
    /** Units x ms per resource type held while not counted: integral of {@code held_r x (1 - g'/g) dt}. */
    double[] uncountedResourceMs = new double[3];
    double kLendSeen;
    double kBorrowSeen;
    // memory integrals
    double memActual;
    double memCounted;
    double memEntitled;
    double phi;
    long round;
    /** First instant of the next round (ROUNDS only), so the common case needs no division. */
    long roundEnd = Long.MAX_VALUE;
    boolean arrived;
    long arrivalAt;

    Accumulators(long start) {
        this.last = start;
    }

    Accumulators copy() {
        return copyInto(new Accumulators(last));
    }

    /** Sets every value of {@code c} to this one's (its resource integrals are its own); returns {@code c}. */
    Accumulators copyInto(Accumulators c) {
        c.last = last;
        c.actual = actual;
        c.counted = counted;
        c.entitled = entitled;
        c.demand = demand;
        c.borrowedRaw = borrowedRaw;
        c.lent = lent;
        c.borrowedFromSiblings = borrowedFromSiblings;
        for (int r = 0; r < resourceMs.length; r++) {
            c.resourceMs[r].hi = resourceMs[r].hi;
            c.resourceMs[r].lo = resourceMs[r].lo;
            c.uncountedResourceMs[r] = uncountedResourceMs[r];
        }
        c.kLendSeen = kLendSeen;
        c.kBorrowSeen = kBorrowSeen;
        c.memActual = memActual;
        c.memCounted = memCounted;
        c.memEntitled = memEntitled;
        c.phi = phi;
        c.round = round;
        c.roundEnd = roundEnd;
        c.arrived = arrived;
        c.arrivalAt = arrivalAt;
        return c;
    }

    void clearPeriod() {
        actual = 0;
        counted = 0;
        entitled = 0;
        demand = 0;
        borrowedRaw = 0;
        lent = 0;
        borrowedFromSiblings = 0;
        for (Int128 r : resourceMs) {
            r.clear();
        }
        java.util.Arrays.fill(uncountedResourceMs, 0);
    }
}
