package io.fairledger.facts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.model.MemoryUnits;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;

/**
 * Stores a {@link LedgerFact} as its columns ({@link #kind}, cluster, time, dedupe key) and a small JSON document of its
 * kind's own members, and reads it back unchanged.
 */
public final class FactCodec {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonStringEncoder QUOTER = JsonStringEncoder.getInstance();

    private FactCodec() {
    }

    /** The fact's kind, as stored in its own column. */
    public static String kind(LedgerFact fact) {
        if (fact instanceof LedgerFact.Event e) {
            return e.event().getClass().getSimpleName();
        }
        return fact.getClass().getSimpleName();
    }

    /**
     * The kind's own members of the fact as one flat JSON object, e.g. {@code {"task":"container_1"}} for a
     * {@code TaskFinished}. The members every fact has (kind, cluster, time, dedupe key) are columns of their own next
     * to it ({@code ledger_fact}), so they are not repeated here; {@link #decode} takes them back from there. Written
     * straight into a string: this runs once per fact on the ingestion hot path.
     */
    public static String encode(LedgerFact fact) {
        Json out = new Json();
        if (fact instanceof LedgerFact.Event e) {
            LedgerEvent event = e.event();
            if (event instanceof LedgerEvent.TaskStarted s) {
                out.string("task", s.taskId()).string("tenant", s.tenant().toString())
                        .string("application", s.applicationId()).resources(s.resources());
            } else if (event instanceof LedgerEvent.TaskFinished f) {
                out.string("task", f.taskId());
            } else if (event instanceof LedgerEvent.CapacityChanged c) {
                out.resources(c.capacity());
            } else if (event instanceof LedgerEvent.DemandChanged d) {
                out.string("tenant", d.tenant().toString()).string("application", d.applicationId())
                        .resources(d.pending());
            } else if (event instanceof LedgerEvent.WeightChanged w) {
                out.string("tenant", w.tenant().toString()).number("weight", w.weight());
            }
        } else if (fact instanceof LedgerFact.NodeCapacity n) {
            out.string("node", n.node()).resources(n.capacity());
        } else if (fact instanceof LedgerFact.Demand d) {
            out.string("tenant", d.tenant()).string("application", d.applicationId()).resources(d.pending());
        }
        return out.end();
    }

    /** A flat JSON object written member by member. */
    private static final class Json {
        private final StringBuilder text = new StringBuilder(192).append('{');

        private StringBuilder name(String name) {
            if (text.length() > 1) {
                text.append(',');
            }
            return text.append('"').append(name).append("\":");
        }

        Json string(String name, String value) {
            StringBuilder b = name(name);
            if (value == null) {
                b.append("null");
            } else {
                b.append('"');
                QUOTER.quoteAsString(value, b);
                b.append('"');
            }
            return this;
        }

        Json number(String name, long value) {
            name(name).append(value);
            return this;
        }

        Json number(String name, double value) {
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException(name + " must be finite, got " + value);
            }
            name(name).append(value);
            return this;
        }

        Json resources(ResourceVector v) {
            number("millicores", v.millicores());
            // memory as a decimal number of MB, exact: 600.5 for a Mesos task, 4096 as whole MB always were
            name("memoryMb").append(MemoryUnits.toMb(v.memoryMilliMb()));
            return number("gpus", v.gpus());
        }

        String end() {
            return text.append('}').toString();
        }
    }

    /**
     * The fact stored as {@code kind}, {@code cluster}, {@code at}, {@code key} (its columns) and {@code json} (what
     * {@link #encode} wrote). Rows written before the columns were left out of the JSON repeat them there; those
     * members are skipped, so both forms read the same. Read with a streaming parser, member by member: the live
     * ledger reads every new fact back.
     */
    public static LedgerFact decode(String kind, String cluster, long at, String key, String json) {
        Members n = Members.read(json);
        return switch (kind) {
            case "TaskStarted" -> new LedgerFact.Event(new LedgerEvent.TaskStarted(cluster, n.text("task"),
                    TenantPath.parse(n.text("tenant")), n.text("application"), n.resources(), at), key);
            case "TaskFinished" -> new LedgerFact.Event(new LedgerEvent.TaskFinished(cluster, n.text("task"), at),
                    key);
            case "CapacityChanged" -> new LedgerFact.Event(new LedgerEvent.CapacityChanged(cluster, n.resources(), at),
                    key);
            case "DemandChanged" -> new LedgerFact.Event(
                    new LedgerEvent.DemandChanged(cluster, TenantPath.parse(n.text("tenant")),
                            n.application == null ? "" : n.application, n.resources(), at),
                    key);
            case "WeightChanged" -> new LedgerFact.Event(new LedgerEvent.WeightChanged(cluster,
                    TenantPath.parse(n.text("tenant")), n.weight, at), key);
            case "NodeCapacity" -> new LedgerFact.NodeCapacity(cluster, n.text("node"), n.resources(), at, key);
            case "Demand" -> new LedgerFact.Demand(cluster, n.text("tenant"), n.text("application"), n.resources(),
                    at, key);
            default -> throw new IllegalStateException("unknown stored fact kind " + kind + ": " + json);
        };
    }

    /** The members a stored fact can have, read in one pass. */
    private static final class Members {
        private String task;
        private String tenant;
        private String application;
        private String node;
        private long millicores;
        private long memoryMilliMb;
        private long gpus;
        private double weight;
        private final String json;

        private Members(String json) {
            this.json = json;
        }

        static Members read(String json) {
            Members m = new Members(json);
            if (!m.readFlat()) {
                m = new Members(json);
                m.readWithParser();
            }
            return m;
        }

        /**
         * Reads the form {@link #encode} writes (and every earlier writer did): one flat object, no white space, names
         * without escapes, values strings, numbers, true, false or null. True when {@link #json} is that form and read;
         * false for anything else (white space, a nested value, a malformed text), which the general parser reads or
         * refuses as it always did. No parser is built: the live ledger reads every new fact back.
         */
        private boolean readFlat() {
            int last = json.length() - 1;
            if (last < 1 || json.charAt(0) != '{' || json.charAt(last) != '}') {
                return false;
            }
            // the usual fact has no escape: then a string ends at the next quote, found by String.indexOf (an
            // intrinsic), not a loop over its characters
            boolean escapes = json.indexOf('\\') >= 0;
            int i = 1;
            while (i < last) {
                if (json.charAt(i) != '"') {
                    return false;
                }
                int nameEnd = json.indexOf('"', i + 1);
                if (nameEnd < 0 || nameEnd >= last || json.charAt(nameEnd + 1) != ':'
                        || !StoredFactJson.isPlainName(json, i + 1, nameEnd)) {
                    return false;
                }
                int nameStart = i + 1;
                int valueStart = nameEnd + 2;
                int valueEnd;
                String text;
                boolean quoted = valueStart < last && json.charAt(valueStart) == '"';
                if (quoted && !escapes) {
                    int quote = json.indexOf('"', valueStart + 1);
                    valueEnd = quote < 0 || quote >= last ? -1 : quote + 1;
                    text = valueEnd < 0 ? null : StoredFactJson.plainString(json, valueStart + 1, valueEnd - 1);
                } else if (quoted) {
                    valueEnd = StoredFactJson.stringEnd(json, valueStart, last);
                    text = valueEnd < 0 ? null : StoredFactJson.unquote(json, valueStart + 1, valueEnd - 1);
                } else {
                    valueEnd = StoredFactJson.scalarEnd(json, valueStart, last);
                    text = valueEnd < 0 ? null : json.substring(valueStart, valueEnd);
                }
                if (text == null || !member(nameStart, nameEnd, text, quoted)) {
                    return false;
                }
                if (valueEnd == last) {
                    return true;
                }
                if (json.charAt(valueEnd) != ',') {
                    return false;
                }
                i = valueEnd + 1;
            }
            return i == 1;
        }

        /** Takes one member's value; false when it is not of the type the flat form gives that member. */
        private boolean member(int nameStart, int nameEnd, String text, boolean quoted) {
            boolean number = named("millicores", nameStart, nameEnd) || named("gpus", nameStart, nameEnd)
                    || named("memoryMb", nameStart, nameEnd) || named("weight", nameStart, nameEnd);
            if (quoted ? number : !StoredFactJson.isScalar(text)) {
                return false;
            }
            if (named("task", nameStart, nameEnd)) {
                task = text;
            } else if (named("tenant", nameStart, nameEnd)) {
                tenant = text;
            } else if (named("application", nameStart, nameEnd)) {
                application = text;
            } else if (named("node", nameStart, nameEnd)) {
                node = text;
            } else if (named("weight", nameStart, nameEnd)) {
                if (!StoredFactJson.isNumber(text)) {
                    return false;
                }
                weight = Double.parseDouble(text);
            } else if (named("memoryMb", nameStart, nameEnd)) {
                if (!StoredFactJson.isNumber(text)) {
                    return false;
                }
                memoryMilliMb = StoredFactJson.isWhole(text)
                        ? MemoryUnits.fromWholeMb(Long.parseLong(text))
                        : MemoryUnits.fromMb(new BigDecimal(text));
            } else if (number) {
                if (!StoredFactJson.isWhole(text)) {
                    return false;
                }
                if (named("gpus", nameStart, nameEnd)) {
                    gpus = Long.parseLong(text);
                } else {
                    millicores = Long.parseLong(text);
                }
            }
            return true;
        }

        private boolean named(String name, int start, int end) {
            return end - start == name.length() && json.startsWith(name, start);
        }

        private void readWithParser() {
            try (JsonParser p = JSON.getFactory().createParser(json)) {
                if (p.nextToken() != JsonToken.START_OBJECT) {
                    throw new IllegalStateException("stored fact is not a JSON object: " + json);
                }
                for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
                    p.nextToken();
                    switch (name) {
                        case "task" -> task = text(p);
                        case "tenant" -> tenant = text(p);
                        case "application" -> application = text(p);
                        case "node" -> node = text(p);
                        case "millicores" -> millicores = p.getValueAsLong();
                        case "memoryMb" -> memoryMilliMb = MemoryUnits.fromMb(p.getDecimalValue());
                        case "gpus" -> gpus = p.getValueAsLong();
                        case "weight" -> weight = p.getValueAsDouble();
                        default -> p.skipChildren(); // kind, cluster, at, key of older rows: the columns say them
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("stored fact is not JSON: " + json, e);
            }
        }

        /** A text member's value; null written as null reads as "null", as the tree's {@code asText} read it. */
        private static String text(JsonParser p) throws IOException {
            return p.currentToken() == JsonToken.VALUE_NULL ? "null" : p.getValueAsString();
        }

        /** A text member every fact of its kind has. */
        String text(String name) {
            String value = switch (name) {
                case "task" -> task;
                case "tenant" -> tenant;
                case "application" -> application;
                default -> node;
            };
            if (value == null) {
                throw new IllegalStateException("stored fact has no " + name + ": " + json);
            }
            return value;
        }

        ResourceVector resources() {
            return new ResourceVector(millicores, memoryMilliMb, gpus);
        }
    }
}
