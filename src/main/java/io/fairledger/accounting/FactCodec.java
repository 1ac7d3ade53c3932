package io.fairledger.accounting;

import java.io.IOException;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;

/** Stores a {@link LedgerFact} as a small JSON document and reads it back unchanged. */
public final class FactCodec {

    private static final ObjectMapper JSON = new ObjectMapper();

    private FactCodec() {
    }

    /** The fact's kind, as stored in its own column. */
    public static String kind(LedgerFact fact) {
        if (fact instanceof LedgerFact.Event e) {
            return e.event().getClass().getSimpleName();
        }
        return fact.getClass().getSimpleName();
    }

    public static String encode(LedgerFact fact) {
        ObjectNode node = JSON.createObjectNode();
        node.put("kind", kind(fact));
        node.put("cluster", fact.clusterId());
        node.put("at", fact.at());
        node.put("key", fact.dedupeKey());
        if (fact instanceof LedgerFact.Event e) {
            LedgerEvent event = e.event();
            if (event instanceof LedgerEvent.TaskStarted s) {
                node.put("task", s.taskId()).put("tenant", s.tenant().toString()).put("application",
                        s.applicationId());
                resources(node, s.resources());
            } else if (event instanceof LedgerEvent.TaskFinished f) {
                node.put("task", f.taskId());
            } else if (event instanceof LedgerEvent.CapacityChanged c) {
                resources(node, c.capacity());
            } else if (event instanceof LedgerEvent.DemandChanged d) {
                node.put("tenant", d.tenant().toString());
                resources(node, d.pending());
            } else if (event instanceof LedgerEvent.WeightChanged w) {
                node.put("tenant", w.tenant().toString()).put("weight", w.weight());
            }
        } else if (fact instanceof LedgerFact.NodeCapacity n) {
            node.put("node", n.node());
            resources(node, n.capacity());
        } else if (fact instanceof LedgerFact.Demand d) {
            node.put("tenant", d.tenant()).put("application", d.applicationId());
            resources(node, d.pending());
        }
        return node.toString();
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

    private static void resources(ObjectNode node, ResourceVector v) {
        node.put("millicores", v.millicores()).put("memoryMb", v.memoryMb()).put("gpus", v.gpus());
    }

    private static ResourceVector resources(JsonNode n) {
        return new ResourceVector(n.get("millicores").asLong(), n.get("memoryMb").asLong(), n.get("gpus").asLong());
    }
}
