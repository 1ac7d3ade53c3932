package io.fairledger.accounting;

import java.io.IOException;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;

/** Stores a {@link LedgerFact} as a small JSON document and reads it back unchanged. */
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
     * The fact as one JSON object: {@code kind}, {@code cluster}, {@code at}, {@code key}, then the kind's own members.
     * Written straight into a string (this runs once per fact on the ingestion hot path); {@link #decode} reads it.
     */
    public static String encode(LedgerFact fact) {
        Json out = new Json();
        out.string("kind", kind(fact)).string("cluster", fact.clusterId()).number("at", fact.at())
                .string("key", fact.dedupeKey());
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
                out.string("tenant", d.tenant().toString()).resources(d.pending());
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
            return number("millicores", v.millicores()).number("memoryMb", v.memoryMb()).number("gpus", v.gpus());
        }

        String end() {
            return text.append('}').toString();
        }
    }

    public static LedgerFact decode(String json) {
        JsonNode n;
        try {
            n = JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException("stored fact is not JSON: " + json, e);
        }
        String cluster = n.get("cluster").asText();
        long at = n.get("at").asLong();
        String key = n.get("key").asText();
        return switch (n.get("kind").asText()) {
            case "TaskStarted" -> new LedgerFact.Event(new LedgerEvent.TaskStarted(cluster, n.get("task").asText(),
                    TenantPath.parse(n.get("tenant").asText()), n.get("application").asText(), resources(n), at), key);
            case "TaskFinished" -> new LedgerFact.Event(
                    new LedgerEvent.TaskFinished(cluster, n.get("task").asText(), at), key);
            case "CapacityChanged" -> new LedgerFact.Event(new LedgerEvent.CapacityChanged(cluster, resources(n), at),
                    key);
            case "DemandChanged" -> new LedgerFact.Event(
                    new LedgerEvent.DemandChanged(cluster, TenantPath.parse(n.get("tenant").asText()), resources(n),
                            at),
                    key);
            case "WeightChanged" -> new LedgerFact.Event(new LedgerEvent.WeightChanged(cluster,
                    TenantPath.parse(n.get("tenant").asText()), n.get("weight").asDouble(), at), key);
            case "NodeCapacity" -> new LedgerFact.NodeCapacity(cluster, n.get("node").asText(), resources(n), at, key);
            case "Demand" -> new LedgerFact.Demand(cluster, n.get("tenant").asText(), n.get("application").asText(),
                    resources(n), at, key);
            default -> throw new IllegalStateException("unknown stored fact kind in " + json);
        };
    }

    private static ResourceVector resources(JsonNode n) {
        return new ResourceVector(n.get("millicores").asLong(), n.get("memoryMb").asLong(), n.get("gpus").asLong());
    }
}
