package io.fairledger.integrations.yarn;

import java.time.Instant;

/**
 * Writes one flat JSON object, the plain-JSON encoding of kafka-schemas/ (timestamps as epoch milliseconds). Written by
 * hand so that nothing but kafka-clients joins the ResourceManager's classpath.
 */
public final class JsonObject {

    private final StringBuilder out = new StringBuilder("{");

    public JsonObject put(String name, String value) {
        name(name);
        if (value == null) {
            out.append("null");
        } else {
            quote(value);
        }
        return this;
    }

    public JsonObject put(String name, long value) {
        name(name);
        out.append(value);
        return this;
    }

    public JsonObject put(String name, double value) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException(name + " is not finite: " + value);
        }
        name(name);
        out.append(value);
        return this;
    }

    /** A nullable long (epoch milliseconds or an exit status); null when absent. */
    public JsonObject putNullable(String name, Long value) {
        name(name);
        out.append(value == null ? "null" : value.toString());
        return this;
    }

    public JsonObject putTime(String name, long epochMillis) {
        if (epochMillis <= 0) {
            throw new IllegalArgumentException(name + " is not a time: " + epochMillis + " ("
                    + Instant.ofEpochMilli(Math.max(0, epochMillis)) + ")");
        }
        return put(name, epochMillis);
    }

    @Override
    public String toString() {
        return out + "}";
    }

    private void name(String name) {
        if (out.length() > 1) {
            out.append(',');
        }
        quote(name);
        out.append(':');
    }

    private void quote(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
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
}
