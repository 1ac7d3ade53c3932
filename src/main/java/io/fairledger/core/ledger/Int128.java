package io.fairledger.core.ledger;

import java.math.BigInteger;

/**
 * An exact non-negative 128-bit accumulator of products {@code units x milliseconds}, so resource-milliseconds
 * (MB-ms of a petabyte cluster over years) never overflow and never round. Mutable; owned by one ledger node.
 */
final class Int128 {

    long hi;
    long lo;

    /** Adds {@code a * b}; both must be >= 0. */
    void addProduct(long a, long b) {
        long pHi = Math.multiplyHigh(a, b);
        long pLo = a * b;
        long newLo = lo + pLo;
        long carry = Long.compareUnsigned(newLo, lo) < 0 ? 1 : 0;
        lo = newLo;
        hi = hi + pHi + carry;
    }

    void clear() {
        hi = 0;
        lo = 0;
    }

    Int128 copy() {
        Int128 c = new Int128();
        c.hi = hi;
        c.lo = lo;
        return c;
    }

    BigInteger value() {
        BigInteger low = new BigInteger(Long.toUnsignedString(lo));
        return BigInteger.valueOf(hi).shiftLeft(64).add(low);
    }
}
