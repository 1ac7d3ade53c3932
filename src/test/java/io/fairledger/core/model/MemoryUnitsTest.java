package io.fairledger.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class MemoryUnitsTest {

    @Test
    void decimalMbWithAtMostThreeDecimalsIsExact() {
        assertEquals(600_500, MemoryUnits.fromDecimalMb(600.5));
        assertEquals(1, MemoryUnits.fromDecimalMb(0.001));
        assertEquals(600_100, MemoryUnits.fromDecimalMb(600.1));
        assertEquals(4_096_000, MemoryUnits.fromDecimalMb(4096));
        assertEquals(0, MemoryUnits.fromDecimalMb(0));
    }

    @Test
    void aFourthDecimalNegativeOrHugeAmountIsRefused() {
        assertEquals(-1, MemoryUnits.fromDecimalMb(600.0005));
        assertEquals(-1, MemoryUnits.fromDecimalMb(-0.5));
        assertEquals(-1, MemoryUnits.fromDecimalMb(Double.NaN));
        assertEquals(-1, MemoryUnits.fromDecimalMb(Double.POSITIVE_INFINITY));
        assertEquals(-1, MemoryUnits.fromDecimalMb(Long.MAX_VALUE / 1000.0 * 2));
    }

    @Test
    void wholeMbNearTheEdgeOverflowsLoudly() {
        assertEquals(Long.MAX_VALUE / 1000 * 1000, MemoryUnits.fromWholeMb(Long.MAX_VALUE / 1000));
        assertThrows(ArithmeticException.class, () -> MemoryUnits.fromWholeMb(Long.MAX_VALUE / 1000 + 1));
    }

    @Test
    void printsDecimalMbWithoutTrailingZeros() {
        assertEquals("600.5", MemoryUnits.toMb(600_500));
        assertEquals("0.001", MemoryUnits.toMb(1));
        assertEquals("4096", MemoryUnits.toMb(4_096_000));
        assertEquals("0", MemoryUnits.toMb(0));
    }
}
