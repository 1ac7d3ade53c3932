package io.fairledger.core.model;

/**
 * The one rule for text that names something (ids, tenant paths, names) wherever it enters, over Kafka or HTTP: it is
 * stored in PostgreSQL, compared byte for byte, and shown in terminals, CSV and web pages, so it must survive all of
 * them unchanged. Refused, never altered:
 * <ul>
 * <li>control characters (Unicode category Cc: U+0000 to U+001F and U+007F to U+009F): PostgreSQL text cannot hold
 * U+0000 at all, and the others rewrite terminals and logs ({@code ESC [31m}) or break CSV lines;</li>
 * <li>unpaired UTF-16 surrogates: they have no UTF-8 form, so encoders replace them with {@code ?} and two distinct
 * ids would become one (a collision that silently drops the second as a duplicate);</li>
 * <li>line and paragraph separators (U+2028, U+2029) and the bidirectional overrides and isolates (U+202A to U+202E,
 * U+2066 to U+2069), which make an id display as another;</li>
 * <li>invisible format characters (Unicode category Cf: zero-width space, joiners and non-joiners, the byte order
 * mark, the soft hyphen), which make two ids that look the same differ;</li>
 * <li>noncharacters (U+FDD0 to U+FDEF and the last two code points of every plane, U+FFFE and U+FFFF among them),
 * which Unicode reserves for a program's internal use and which no text exchanged should hold.</li>
 * </ul>
 */
public final class PlainText {

    private PlainText() {
    }

    /** What is wrong with {@code text}, or null when it can be kept as it is (null text is the caller's concern). */
    public static String problem(String text) {
        if (text == null) {
            return null;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= ' ' && c < '\u007F') {
                continue; // printable ASCII, nearly every character of an id: nothing below applies
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                    String problem = symbolProblem(text.codePointAt(i), i);
                    if (problem != null) {
                        return problem;
                    }
                    i++;
                    continue;
                }
                return "an unpaired UTF-16 surrogate " + codePoint(c) + " at index " + i
                        + " (it has no UTF-8 form and would be stored as another character)";
            }
            if (Character.isLowSurrogate(c)) {
                return "an unpaired UTF-16 surrogate " + codePoint(c) + " at index " + i
                        + " (it has no UTF-8 form and would be stored as another character)";
            }
            if (Character.getType(c) == Character.CONTROL) {
                return "the control character " + codePoint(c) + " at index " + i
                        + (c == 0 ? " (NUL cannot be stored)" : " (it would rewrite terminals, logs or CSV lines)");
            }
            if (c == '\u2028' || c == '\u2029' || (c >= '\u202A' && c <= '\u202E')
                    || (c >= '\u2066' && c <= '\u2069')) {
                return "the invisible layout character " + codePoint(c) + " at index " + i
                        + " (it makes the text display as other text)";
            }
            String problem = symbolProblem(c, i);
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    /** What is wrong with the code point {@code cp} at index {@code i}: a format character or a noncharacter. */
    private static String symbolProblem(int cp, int i) {
        if (Character.getType(cp) == Character.FORMAT) {
            return "the invisible format character " + String.format("U+%04X", cp) + " at index " + i
                    + " (it makes two texts that look the same differ)";
        }
        if ((cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE) {
            return "the noncharacter " + String.format("U+%04X", cp) + " at index " + i
                    + " (reserved by Unicode for internal use, never exchanged)";
        }
        return null;
    }

    /**
     * {@code text} fit for a terminal, a log line or a problem detail: every character this rule refuses (control
     * characters, unpaired surrogates, layout characters) written as a Java escape (backslash, u, four hex digits:
     * ESC is shown as the six characters of its escape), the rest unchanged.
     * For text that came from outside and is shown, not stored.
     */
    public static String escaped(String text) {
        if (text == null || problem(text) == null) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1));
            if (pair) {
                out.append(c).append(text.charAt(++i));
            } else if (problem(String.valueOf(c)) != null) {
                out.append(String.format("\\u%04X", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static String codePoint(char c) {
        return String.format("U+%04X", (int) c);
    }
}
