package io.fairledger.core.ledger;

/** The named tolerance of the ledger's floating-point shares. */
public final class Accuracy {

    /**
     * Shares are fractions of capacity in [0, 1] (sums of a few); a difference below this is floating-point noise,
     * not a resource. 1e-12 is far below one millicore of a 1,000,000-vcore cluster (1e-9).
     */
    public static final double EPSILON = 1e-12;

    private Accuracy() {
    }
}
