package io.fairledger.core.chain;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The JSON Canonicalization Scheme of RFC 8785 (Rundgren, Jordan and Erdtman, 2020): a JSON value written without
 * whitespace, object members sorted by their names' UTF-16 code units, strings with only the escapes the RFC names, and
 * numbers as ECMAScript's {@code Number.prototype.toString} writes the IEEE 754 double they denote. Values are those of
 * {@link JsonText}.
 */
public final class Jcs {

    private Jcs() {
    }

    /** The canonical UTF-8 bytes of the JSON text {@code json}. */
    public static byte[] canonicalise(String json) {
        return canonicalise(JsonText.parse(json));
    }

    /** The canonical UTF-8 bytes of {@code value}, a value as {@link JsonText#parse} gives it. */
    public static byte[] canonicalise(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void write(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof Boolean b) {
            out.append(b);
        } else if (value instanceof Double d) {
            out.append(number(d));
        } else if (value instanceof String s) {
            string(s, out);
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                write(list.get(i), out);
            }
            out.append(']');
        } else if (value instanceof Map<?, ?> map) {
            List<String> names = new ArrayList<>();
            map.keySet().forEach(k -> names.add((String) k));
            // String's natural order compares UTF-16 code units, the order RFC 8785 section 3.2.3 asks for
            names.sort(null);
            out.append('{');
            for (int i = 0; i < names.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                string(names.get(i), out);
                out.append(':');
                write(map.get(names.get(i)), out);
            }
            out.append('}');
        } else {
            throw new IllegalArgumentException("not a JSON value: " + value.getClass().getName());
        }
    }

    private static void string(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                out.append(c).append(s.charAt(++i));
                continue;
            }
            if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException(
                        "a lone surrogate in a string: not Unicode (RFC 8785 section 3.2.2)");
            }
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /**
     * {@code d} as ECMAScript's {@code Number.prototype.toString} writes it (ECMA-262, Number::toString): the fewest
     * significant digits that read back as {@code d} (of two such, the nearer to {@code d}), in plain notation for
     * magnitudes from 1e-6 up to below 1e21, else as {@code 1.5e+21}. Found with exact decimal arithmetic, so it does
     * not depend on the JDK's {@code Double.toString}, which before JDK 19 is not always the shortest.
     *
     * @throws IllegalArgumentException for NaN and the infinities, which JSON cannot hold
     */
    public static String number(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw new IllegalArgumentException("NaN and Infinity are not JSON numbers (RFC 8785 section 3.2.2.3)");
        }
        if (d == 0) {
            return "0";
        }
        double v = Math.abs(d);
        BigDecimal shortest = shortest(v).stripTrailingZeros();
        String digits = shortest.unscaledValue().toString();
        int k = digits.length();
        // v = 0.digits * 10^n
        int n = k - shortest.scale();
        StringBuilder out = new StringBuilder(d < 0 ? "-" : "");
        if (k <= n && n <= 21) {
            out.append(digits).append("0".repeat(n - k));
        } else if (0 < n && n <= 21) {
            out.append(digits, 0, n).append('.').append(digits, n, k);
        } else if (-6 < n && n <= 0) {
            out.append("0.").append("0".repeat(-n)).append(digits);
        } else {
            int e = n - 1;
            out.append(digits.charAt(0));
            if (k > 1) {
                out.append('.').append(digits, 1, k);
            }
            out.append('e').append(e < 0 ? '-' : '+').append(Math.abs(e));
        }
        return out.toString();
    }

    /** The decimal with the fewest significant digits that reads back as {@code v} (positive, finite). */
    private static BigDecimal shortest(double v) {
        BigDecimal exact = new BigDecimal(v);
        for (int p = 1; p < 17; p++) {
            BigDecimal down = exact.round(new MathContext(p, RoundingMode.FLOOR));
            BigDecimal up = exact.round(new MathContext(p, RoundingMode.CEILING));
            boolean downReads = down.doubleValue() == v;
            boolean upReads = up.doubleValue() == v;
            if (downReads && upReads) {
                int nearer = exact.subtract(down).compareTo(up.subtract(exact));
                if (nearer != 0) {
                    return nearer < 0 ? down : up;
                }
                return down.unscaledValue().testBit(0) ? up : down;
            }
            if (downReads) {
                return down;
            }
            if (upReads) {
                return up;
            }
        }
        // 17 significant digits always read back (IEEE 754 section 5.12.2)
        return exact.round(new MathContext(17, RoundingMode.HALF_EVEN));
    }
}
