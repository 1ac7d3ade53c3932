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

    /** The accumulator holding {@code v}, which {@link #value} gave. */
    static Int128 of(BigInteger v) {
        Int128 c = new Int128();
        c.hi = high(v);
        c.lo = low(v);
        return c;
    }

    BigInteger value() {
        return value(hi, lo);
    }

    /** The number whose high 64 bits are {@code hi} and low 64 bits, unsigned, {@code lo}. */
    static BigInteger value(long hi, long lo) {
        if (hi == lo >> 63) {
            return BigInteger.valueOf(lo); // fits in a long: the usual case, with no string or shift
        }
        return BigInteger.valueOf(hi).shiftLeft(64).add(BigInteger.valueOf(lo).and(LOW_64));
    }

    /** 2^64 - 1: a long's bits read unsigned. */
    private static final BigInteger LOW_64 = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    /** The high 64 bits of {@code v}, a {@link #value}. */
    static long high(BigInteger v) {
        return v.shiftRight(64).longValueExact();
    }

    /** The low 64 bits of {@code v}, a {@link #value}. */
    static long low(BigInteger v) {
        return v.longValue();
    }
}
