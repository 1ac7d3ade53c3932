package io.fairledger.accounting;

import java.util.Locale;

import io.fairledger.errors.Invalid;

/** The one rule for choosing a statements answer's form: {@code ?format=csv|json} wins over the Accept header. */
public final class StatementFormat {

    private StatementFormat() {
    }

    /**
     * True for CSV: {@code format} is {@code csv}, or absent with an Accept header naming {@code text/csv}.
     *
     * @throws Invalid for a format other than csv or json
     */
    public static boolean csv(String format, String accept) {
        if (format == null || format.isBlank()) {
            return accept != null && accept.contains("text/csv");
        }
        return switch (format.strip().toLowerCase(Locale.ROOT)) {
            case "csv" -> true;
            case "json" -> false;
            default -> throw Invalid.field("query.format", "format must be csv or json, got '" + format + "'");
        };
    }
}
