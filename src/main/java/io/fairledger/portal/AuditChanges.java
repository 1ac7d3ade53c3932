package io.fairledger.portal;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fairledger.audit.AuditTrail;

/**
 * An audit entry in words, for the admin page: what changed member by member ({@code weight: 1 → 2},
 * {@code period.length: 1 hour → 1 day}), not the two JSON documents recorded (those stay in the API and its CSV).
 */
final class AuditChanges {

    private AuditChanges() {
    }

    /** One change as the page shows it: when, who, which cluster and subject, and each member that changed. */
    record Row(String at, String actor, String cluster, String subject, List<String> changes, String effectiveFrom) {
    }

    static List<Row> rows(List<AuditTrail.Change> changes, ObjectMapper json) {
        List<Row> out = new ArrayList<>();
        for (AuditTrail.Change c : changes) {
            out.add(new Row(Format.instant(c.at().toInstant()), c.actor(), c.cluster(), c.subject(),
                    differences(read(json, c.before()), read(json, c.after())),
                    c.effectiveFrom() == null ? "" : Format.instant(c.effectiveFrom().toInstant())));
        }
        return out;
    }

    /**
     * The members of {@code before} and {@code after} (JSON, null: none) that differ, by their path, in the order they
     * appear: "created", "removed", or one line per member ("x: a → b", "x: set to b", "x: a removed").
     */
    static List<String> differences(JsonNode before, JsonNode after) {
        if (before == null && after == null) {
            return List.of();
        }
        Map<String, String> was = flat(before);
        Map<String, String> is = flat(after);
        List<String> out = new ArrayList<>();
        if (before == null) {
            out.add("created");
        } else if (after == null) {
            out.add("removed");
            return out;
        }
        Set<String> members = new LinkedHashSet<>(was.keySet());
        members.addAll(is.keySet());
        for (String m : members) {
            String a = was.get(m);
            String b = is.get(m);
            if (a == null) {
                out.add(m + ": " + b);
            } else if (b == null) {
                out.add(m + ": " + a + " removed");
            } else if (!a.equals(b)) {
                out.add(m + ": " + a + " → " + b);
            }
        }
        if (out.isEmpty()) {
            out.add("no member changed");
        }
        return out;
    }

    private static JsonNode read(ObjectMapper json, String text) {
        if (text == null) {
            return null;
        }
        try {
            JsonNode node = json.readTree(text);
            return node == null || node.isNull() ? null : node;
        } catch (JsonProcessingException e) {
            return json.getNodeFactory().textNode(text);
        }
    }

    /** Every leaf member of {@code node} by its path ({@code a.b}, {@code plans[0].name}), in document order. */
    private static Map<String, String> flat(JsonNode node) {
        Map<String, String> out = new LinkedHashMap<>();
        if (node != null) {
            flat("", node, out);
        }
        return out;
    }

    private static void flat(String path, JsonNode node, Map<String, String> out) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                flat(path.isEmpty() ? e.getKey() : path + "." + e.getKey(), e.getValue(), out);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                flat(path + "[" + i + "]", node.get(i), out);
            }
        } else {
            out.put(path.isEmpty() ? "value" : path, words(node));
        }
    }

    /**
     * A leaf value in words: an ISO-8601 duration as a duration ("1 day"), a number without trailing zeros, null as
     * "none", others as written.
     */
    private static String words(JsonNode value) {
        if (value.isNull()) {
            return "none";
        }
        if (value.isNumber()) {
            return value.decimalValue().stripTrailingZeros().toPlainString();
        }
        String text = value.asText();
        if (value.isTextual() && text.startsWith("P")) {
            try {
                return Format.duration(Duration.parse(text));
            } catch (DateTimeParseException e) {
                // a text that only starts like a duration
            }
        }
        return text;
    }
}
