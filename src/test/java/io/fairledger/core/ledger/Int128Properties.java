package io.fairledger.core.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;

import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

/** {@link Int128}: exact sums of products, and their value as a {@link BigInteger} whatever the two words hold. */
class Int128Properties {

    private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

    @Property(tries = 2000)
    void theValueIsTheHighWordTimesTwoToThe64PlusTheLowWordUnsigned(@ForAll long hi, @ForAll long lo) {
        BigInteger unsignedLo = BigInteger.valueOf(lo).mod(TWO_64);
        assertThat(Int128.value(hi, lo)).isEqualTo(BigInteger.valueOf(hi).multiply(TWO_64).add(unsignedLo));
        assertThat(Int128.of(Int128.value(hi, lo)).value()).isEqualTo(Int128.value(hi, lo));
    }

    /** Up to 2^58 x 2^58 x 1000 < 2^127: the accumulator's range. */
    @Property(tries = 500)
    void sumsOfProductsAreExact(@ForAll @LongRange(min = 0, max = 1L << 58) long a,
            @ForAll @LongRange(min = 0, max = 1L << 58) long b,
            @ForAll @LongRange(min = 0, max = 1000) long times) {
        Int128 sum = new Int128();
        for (long i = 0; i < times; i++) {
            sum.addProduct(a, b);
        }
        assertThat(sum.value()).isEqualTo(BigInteger.valueOf(a).multiply(BigInteger.valueOf(b))
                .multiply(BigInteger.valueOf(times)));
    }

    @Example
    void theEdgesOfALong() {
        assertThat(Int128.value(0, Long.MAX_VALUE)).isEqualTo(BigInteger.valueOf(Long.MAX_VALUE));
        assertThat(Int128.value(0, Long.MIN_VALUE)).isEqualTo(BigInteger.ONE.shiftLeft(63));
        assertThat(Int128.value(0, -1)).isEqualTo(TWO_64.subtract(BigInteger.ONE));
        assertThat(Int128.value(1, 0)).isEqualTo(TWO_64);
        assertThat(Int128.value(-1, -1)).isEqualTo(BigInteger.valueOf(-1));
    }
}
