package io.fairledger.facts;

/**
 * The pieces of JSON text {@link FactCodec} reads a stored fact's flat object by without building a parser: where a
 * string or a scalar ends, a string's unescaped text, and which scalars are numbers. Strict: whatever JSON would refuse
 * (a raw control character in a string, a bad escape, a leading zero) is refused here too, by a -1 or null, and left to
 * the general parser, which refuses it with its own message.
 */
final class StoredFactJson {

    /** Digits of the largest whole number read as a {@code long} here; longer ones go to the general parser. */
    private static final int WHOLE_DIGITS = 18;

    private StoredFactJson() {
    }

    /** The index after the string that opens at {@code open} (a quote), or -1 when it does not close before {@code limit}. */
    static int stringEnd(String json, int open, int limit) {
        for (int i = open + 1; i < limit; i++) {
            char c = json.charAt(i);
            if (c == '"') {
                return i + 1;
            }
            if (c == '\\') {
                i++;
            }
        }
        return -1;
    }

    /** The index of the comma or the end ({@code limit}) after the scalar at {@code from}, or -1 when there is none. */
    static int scalarEnd(String json, int from, int limit) {
        for (int i = from; i < limit; i++) {
            char c = json.charAt(i);
            if (c == ',') {
                return i == from ? -1 : i;
            }
        }
        return from < limit ? limit : -1;
    }

    /** The text of the string between {@code from} and {@code to} (its quotes left out), or null when JSON refuses it. */
    static String unquote(String json, int from, int to) {
        int escape = json.indexOf('\\', from);
        if (escape < 0 || escape >= to) {
            return plainString(json, from, to);
        }
        StringBuilder out = new StringBuilder(to - from);
        for (int i = from; i < to; i++) {
            char c = json.charAt(i);
            if (c < 0x20) {
                return null;
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (++i >= to) {
                return null;
            }
            switch (json.charAt(i)) {
                case '"' -> out.append('"');
                case '\\' -> out.append('\\');
                case '/' -> out.append('/');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    if (i + 4 >= to) {
                        return null;
                    }
                    int code = 0;
                    for (int k = 1; k <= 4; k++) {
                        int digit = Character.digit(json.charAt(i + k), 16);
                        if (digit < 0) {
                            return null;
                        }
                        code = code * 16 + digit;
                    }
                    out.append((char) code);
                    i += 4;
                }
                default -> {
                    return null;
                }
            }
        }
        return out.toString();
    }

    /** True when the name between {@code from} and {@code to} reads as written: no escape, no control character. */
    static boolean isPlainName(String json, int from, int to) {
        int escape = json.indexOf('\\', from);
        return (escape < 0 || escape >= to) && plain(json, from, to);
    }

    /** The text of an unescaped string from {@code from} to {@code to}; null when it holds a control character. */
    static String plainString(String json, int from, int to) {
        return plain(json, from, to) ? json.substring(from, to) : null;
    }

    private static boolean plain(String json, int from, int to) {
        for (int i = from; i < to; i++) {
            if (json.charAt(i) < 0x20) {
                return false;
            }
        }
        return true;
    }

    /** True for a JSON scalar other than a string: a number, true, false or null. */
    static boolean isScalar(String text) {
        return text.equals("null") || text.equals("true") || text.equals("false") || isNumber(text);
    }

    /** True for a JSON number: an optional minus, an integer without leading zeros, a fraction, an exponent. */
    static boolean isNumber(String text) {
        int n = text.length();
        int i = text.startsWith("-") ? 1 : 0;
        int digits = digits(text, i);
        if (digits == 0 || digits > 1 && text.charAt(i) == '0') {
            return false;
        }
        i += digits;
        if (i < n && text.charAt(i) == '.') {
            int fraction = digits(text, i + 1);
            if (fraction == 0) {
                return false;
            }
            i += 1 + fraction;
        }
        if (i < n && (text.charAt(i) == 'e' || text.charAt(i) == 'E')) {
            i++;
            if (i < n && (text.charAt(i) == '+' || text.charAt(i) == '-')) {
                i++;
            }
            int exponent = digits(text, i);
            if (exponent == 0) {
                return false;
            }
            i += exponent;
        }
        return i == n;
    }

    /** True for a JSON number that is a whole number of at most {@value #WHOLE_DIGITS} digits (a {@code long}). */
    static boolean isWhole(String text) {
        int sign = text.startsWith("-") ? 1 : 0;
        int digits = text.length() - sign;
        return digits <= WHOLE_DIGITS && digits(text, sign) == digits && isNumber(text);
    }

    private static int digits(String text, int from) {
        int i = from;
        while (i < text.length() && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
            i++;
        }
        return i - from;
    }
}
