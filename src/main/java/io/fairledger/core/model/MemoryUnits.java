package io.fairledger.core.model;

import java.math.BigDecimal;

/**
 * Memory at the precision Mesos keeps: thousandths of a MB, as exact integers. Mesos keeps scalar resources to three
 * decimals, so a task of 600.5 MB is 600,500 thousandths; YARN's whole MB are whole thousands and print as before.
 *
 * <p>
 * Decision: a decimal MB amount with a fourth decimal is refused, not rounded, the same rule the ingest path applies
 * to Mesos' cpus; rounding would move usage between tenants silently.
 */
public final class MemoryUnits {

    /** Thousandths of a MB in one MB. */
    public static final long PER_MB = 1000L;

    private MemoryUnits() {
    }

    /** Whole MB in thousandths; throws {@link ArithmeticException} on overflow rather than wrapping. */
    public static long fromWholeMb(long mb) {
        return Math.multiplyExact(mb, PER_MB);
    }

    /**
     * A decimal MB amount as sent (a JSON or Avro double) in thousandths, or -1 when it has more than three decimals,
     * is negative, is not finite or does not fit a {@code long} of thousandths. A scaled amount within a millionth of
     * a whole number is whole: binary doubles cannot hold most decimals exactly ({@code 600.1 * 1000} is not exactly
     * {@code 600100}).
     */
    public static long fromDecimalMb(double mb) {
        if (!Double.isFinite(mb) || mb < 0 || mb > Long.MAX_VALUE / PER_MB) {
            return -1;
        }
        double scaled = mb * PER_MB;
        double whole = Math.rint(scaled);
        if (Math.abs(scaled - whole) > 1e-6) {
            return -1;
        }
        return (long) whole;
    }

    /**
     * An exact decimal MB amount in thousandths.
     *
     * @throws ArithmeticException
     *             when it has more than three decimals or does not fit a {@code long} of thousandths
     */
    public static long fromMb(BigDecimal mb) {
        return mb.movePointRight(3).longValueExact();
    }

    /**
     * Thousandth-MB-seconds as MB-seconds, at the scale statements have always shown them (3 decimals: milliseconds
     * of whole MB), or finer when a fraction of a MB needs it (up to 6 decimals): 4096 MB for one second is
     * {@code 4096.000}, 600.5 MB for one millisecond {@code 0.6005}.
     */
    public static BigDecimal mbSeconds(BigDecimal thousandthSeconds) {
        BigDecimal mbSeconds = thousandthSeconds.movePointLeft(3);
        return mbSeconds.setScale(Math.max(3, mbSeconds.stripTrailingZeros().scale()));
    }

    /** Thousandths of a MB printed as a decimal MB number without trailing zeros: 600500 is "600.5", 4096000 "4096". */
    public static String toMb(long thousandths) {
        return BigDecimal.valueOf(thousandths, 3).stripTrailingZeros().toPlainString();
    }
}
