package io.fairledger.core.chain;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict JSON parser (RFC 8259) into plain Java values, as RFC 8785 reads them: objects as {@link Map} (members in
 * text order, a duplicate name refused), arrays as {@link List}, strings as {@link String}, numbers as {@link Double}
 * (IEEE 754, as ECMAScript reads them; a number outside its range is refused), {@code true}/{@code false} as
 * {@link Boolean} and {@code null} as {@code null}. Plain Java, so the core needs no JSON library.
 */
public final class JsonText {

    private final String text;
    private int at;

    private JsonText(String text) {
        this.text = text;
    }

    /**
     * The value of {@code text}, which must hold exactly one JSON value (whitespace around it allowed).
     *
     * @throws IllegalArgumentException naming the offset of what is not JSON
     */
    public static Object parse(String text) {
        JsonText p = new JsonText(text);
        p.space();
        Object value = p.value();
        p.space();
        if (p.at != text.length()) {
            throw p.error("text after the value");
        }
        return value;
    }

    private Object value() {
        if (at >= text.length()) {
            throw error("a value expected");
        }
        char c = text.charAt(at);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> number();
        };
    }

    private Map<String, Object> object() {
        Map<String, Object> out = new LinkedHashMap<>();
        at++;
        space();
        if (peek('}')) {
            at++;
            return out;
        }
        while (true) {
            space();
            if (!peek('"')) {
                throw error("a member name expected");
            }
            String name = string();
            space();
            expect(':');
            space();
            if (out.containsKey(name)) {
                throw error("duplicate member name \"" + name + "\"");
            }
            out.put(name, value());
            space();
            if (peek(',')) {
                at++;
            } else {
                expect('}');
                return out;
            }
        }
    }

    private List<Object> array() {
        List<Object> out = new ArrayList<>();
        at++;
        space();
        if (peek(']')) {
            at++;
            return out;
        }
        while (true) {
            space();
            out.add(value());
            space();
            if (peek(',')) {
                at++;
            } else {
                expect(']');
                return out;
            }
        }
    }

    private String string() {
        StringBuilder out = new StringBuilder();
        at++;
        while (true) {
            if (at >= text.length()) {
                throw error("an unterminated string");
            }
            char c = text.charAt(at++);
            if (c == '"') {
                return out.toString();
            }
            if (c < 0x20) {
                throw error("a control character in a string");
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (at >= text.length()) {
                throw error("an unterminated escape");
            }
            char e = text.charAt(at++);
            switch (e) {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    if (at + 4 > text.length()) {
                        throw error("a short \\u escape");
                    }
                    try {
                        out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                    } catch (NumberFormatException x) {
                        throw error("a \\u escape that is not hexadecimal");
                    }
                    at += 4;
                }
                default -> throw error("an unknown escape \\" + e);
            }
        }
    }

    private Double number() {
        int start = at;
        if (peek('-')) {
            at++;
        }
        if (peek('0')) {
            at++;
        } else if (!digits()) {
            throw error("a value expected");
        }
        if (peek('.')) {
            at++;
            if (!digits()) {
                throw error("digits expected after the decimal point");
            }
        }
        if (peek('e') || peek('E')) {
            at++;
            if (peek('+') || peek('-')) {
                at++;
            }
            if (!digits()) {
                throw error("digits expected in the exponent");
            }
        }
        double value = Double.parseDouble(text.substring(start, at));
        if (Double.isInfinite(value)) {
            throw error("a number outside the range of IEEE 754 doubles");
        }
        return value;
    }

    private boolean digits() {
        int start = at;
        while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
            at++;
        }
        return at > start;
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, at)) {
            throw error("a value expected");
        }
        at += word.length();
        return value;
    }

    private void space() {
        while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
    }

    private boolean peek(char c) {
        return at < text.length() && text.charAt(at) == c;
    }

    private void expect(char c) {
        if (!peek(c)) {
            throw error("'" + c + "' expected");
        }
        at++;
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("not JSON at offset " + at + ": " + what);
    }
}
