package io.fairledger.accounting;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The closed statements' texts held in memory, bounded in bytes. */
class ClosedJsonCacheTest {

    @Test
    void holdsTextsUpToItsBoundPerClusterAndPeriod() {
        ClosedJsonCache cache = new ClosedJsonCache(10);
        cache.put("a", "p1", new byte[6]);
        cache.put("b", "p1", new byte[4]);
        cache.put("a", "p2", new byte[1]);
        assertThat(cache.get("a", "p1")).hasSize(6);
        assertThat(cache.get("b", "p1")).hasSize(4);
        assertThat(cache.get("a", "p2")).as("past the bound: not held").isNull();
        assertThat(cache.periodsOf("a")).containsExactly("p1");
        assertThat(cache.heldBytes()).isEqualTo(10);
    }

    @Test
    void aPeriodIsHeldOnceAndNoneWithABoundOfZero() {
        ClosedJsonCache cache = new ClosedJsonCache(100);
        byte[] first = new byte[3];
        cache.put("a", "p1", first);
        cache.put("a", "p1", new byte[3]);
        assertThat(cache.get("a", "p1")).isSameAs(first);
        assertThat(cache.heldBytes()).isEqualTo(3);

        ClosedJsonCache none = new ClosedJsonCache(0);
        none.put("a", "p1", new byte[1]);
        assertThat(none.periodsOf("a")).isEmpty();
        assertThat(none.heldBytes()).isZero();
    }
}
