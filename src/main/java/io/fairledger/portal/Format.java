package io.fairledger.portal;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

import io.quarkus.qute.TemplateExtension;

/**
 * How the portal writes numbers and instants ({@code {fmt:number(x)}} in a template): rounded for reading; the exact
 * values, as the API's JSON writes them, are in each cell's {@code data-value} and in the CSV and JSON downloads.
 */
@TemplateExtension(namespace = "fmt")
public final class Format {

    private static final DateTimeFormatter INSTANT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);

    private Format() {
    }

    /** A double with at most 4 decimals, "-" for none. */
    public static String number(Double value) {
        if (value == null || value.isNaN()) {
            return "-";
        }
        if (value.isInfinite()) {
            return value > 0 ? "∞" : "-∞";
        }
        return BigDecimal.valueOf(value).setScale(4, RoundingMode.HALF_EVEN).stripTrailingZeros().toPlainString();
    }

    /** A decimal with at most 4 decimals, "-" for none. */
    public static String decimal(BigDecimal value) {
        return value == null ? "-" : value.setScale(4, RoundingMode.HALF_EVEN).stripTrailingZeros().toPlainString();
    }

    /** An instant to the second, in UTC. */
    public static String instant(Instant value) {
        return value == null ? "-" : INSTANT.format(value);
    }

    static String ordinal(int n) {
        String suffix = (n % 100 >= 11 && n % 100 <= 13) ? "th" : switch (n % 10) {
            case 1 -> "st";
            case 2 -> "nd";
            case 3 -> "rd";
            default -> "th";
        };
        return n + suffix;
    }
}
