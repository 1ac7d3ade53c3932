package io.fairledger.portal;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

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

    /**
     * An amount of money with at least the decimals of its currency (ISO 4217: 2 for EUR, 0 for JPY; 2 for XXX, which
     * has none) and any further ones it carries (a cluster's {@code currencyScale} may keep more): {@code 0.60}, not
     * {@code 0.6}; "-" for none.
     */
    public static String money(BigDecimal value, String currency) {
        if (value == null) {
            return "-";
        }
        int digits = 2;
        try {
            int iso = java.util.Currency.getInstance(currency).getDefaultFractionDigits();
            if (iso >= 0) {
                digits = iso;
            }
        } catch (IllegalArgumentException | NullPointerException e) {
            // not an ISO 4217 code: two decimals, as most currencies have
        }
        return value.setScale(Math.max(digits, value.stripTrailingZeros().scale()), RoundingMode.UNNECESSARY)
                .toPlainString();
    }

    /** A duration in words, largest units first: "1 day", "2 hours 30 minutes", "45 seconds"; "-" for none. */
    public static String duration(Duration value) {
        if (value == null) {
            return "-";
        }
        if (value.isZero()) {
            return "0 seconds";
        }
        List<String> parts = new ArrayList<>();
        unit(parts, value.toDaysPart(), "day");
        unit(parts, value.toHoursPart(), "hour");
        unit(parts, value.toMinutesPart(), "minute");
        unit(parts, value.toSecondsPart(), "second");
        unit(parts, value.toMillisPart(), "millisecond");
        return (value.isNegative() ? "minus " : "") + String.join(" ", parts);
    }

    private static void unit(List<String> parts, long amount, String name) {
        if (amount != 0) {
            long n = Math.abs(amount);
            parts.add(n + " " + name + (n == 1 ? "" : "s"));
        }
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
