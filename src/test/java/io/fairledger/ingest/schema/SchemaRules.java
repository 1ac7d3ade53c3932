package io.fairledger.ingest.schema;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;

/**
 * The rules of kafka-schemas/README.md as code: what every event schema must have, and that a new version may only
 * change what both old and new readers can resolve. Each method returns the violations, empty when there are none.
 */
final class SchemaRules {

    static final String NAMESPACE = "io.fairledger.events.v1";

    private SchemaRules() {
    }

    /** Namespace, a doc on every named type and field, and the eventId/cluster/eventTime envelope. */
    static List<String> shapeViolations(Schema schema) {
        List<String> violations = new ArrayList<>();
        if (schema.getType() != Schema.Type.RECORD) {
            violations.add(schema.getFullName() + ": an event schema must be a record");
            return violations;
        }
        if (!NAMESPACE.equals(schema.getNamespace())) {
            violations.add(schema.getFullName() + ": namespace must be " + NAMESPACE);
        }
        docs(schema, violations, new HashSet<>());
        envelopeField(schema, "eventId", Schema.Type.STRING, violations);
        envelopeField(schema, "cluster", Schema.Type.STRING, violations);
        envelopeField(schema, "eventTime", Schema.Type.LONG, violations);
        Schema.Field eventTime = schema.getField("eventTime");
        if (eventTime != null && !LogicalTypes.timestampMillis().equals(eventTime.schema().getLogicalType())) {
            violations.add(schema.getName() + ".eventTime: must have logicalType timestamp-millis");
        }
        return violations;
    }

    /**
     * Differences between {@code baseline} (the committed earlier version) and {@code current} that break readers:
     * current must read data written with baseline (backward) and baseline must read data written with current
     * (forward).
     */
    static List<String> compatibilityViolations(Schema current, Schema baseline) {
        List<String> violations = new ArrayList<>();
        if (!current.getFullName().equals(baseline.getFullName())) {
            violations.add("renamed from " + baseline.getFullName() + " to " + current.getFullName());
        }
        SchemaCompatibility.SchemaPairCompatibility backward = SchemaCompatibility
                .checkReaderWriterCompatibility(current, baseline);
        if (backward.getType() != SchemaCompatibilityType.COMPATIBLE) {
            violations.add(current.getName() + ": not backward compatible (the new schema cannot read data written"
                    + " with the baseline): " + backward.getResult().getIncompatibilities());
        }
        SchemaCompatibility.SchemaPairCompatibility forward = SchemaCompatibility
                .checkReaderWriterCompatibility(baseline, current);
        if (forward.getType() != SchemaCompatibilityType.COMPATIBLE) {
            violations.add(current.getName() + ": not forward compatible (a reader with the baseline cannot read data"
                    + " written with the new schema): " + forward.getResult().getIncompatibilities());
        }
        Map<String, Schema> currentTypes = namedTypes(current);
        Map<String, Schema> baselineTypes = namedTypes(baseline);
        baselineTypes.forEach((name, old) -> {
            Schema now = currentTypes.get(name);
            if (now == null || now.getType() != old.getType()) {
                return;
            }
            if (old.getType() == Schema.Type.RECORD) {
                for (Schema.Field field : old.getFields()) {
                    if (now.getField(field.name()) == null) {
                        violations.add(now.getName() + "." + field.name() + ": removed; within v1 fields stay");
                    }
                }
                for (Schema.Field field : now.getFields()) {
                    if (old.getField(field.name()) == null && !field.hasDefaultValue()) {
                        violations
                                .add(now.getName() + "." + field.name() + ": a field added within v1 needs a default");
                    }
                }
            } else if (old.getType() == Schema.Type.ENUM) {
                for (String symbol : old.getEnumSymbols()) {
                    if (!now.hasEnumSymbol(symbol)) {
                        violations.add(now.getName() + "." + symbol + ": enum symbol removed; within v1 symbols stay");
                    }
                }
            }
        });
        return violations;
    }

    /** Every named type (record, enum) reachable from {@code schema}, by full name. */
    private static Map<String, Schema> namedTypes(Schema schema) {
        Map<String, Schema> types = new HashMap<>();
        collect(schema, types);
        return types;
    }

    private static void collect(Schema schema, Map<String, Schema> types) {
        switch (schema.getType()) {
            case RECORD -> {
                if (types.putIfAbsent(schema.getFullName(), schema) == null) {
                    for (Schema.Field field : schema.getFields()) {
                        collect(field.schema(), types);
                    }
                }
            }
            case ENUM, FIXED -> types.putIfAbsent(schema.getFullName(), schema);
            case UNION -> schema.getTypes().forEach(branch -> collect(branch, types));
            case ARRAY -> collect(schema.getElementType(), types);
            case MAP -> collect(schema.getValueType(), types);
            default -> {
            }
        }
    }

    private static void envelopeField(Schema schema, String name, Schema.Type type, List<String> violations) {
        Schema.Field field = schema.getField(name);
        if (field == null) {
            violations.add(schema.getName() + ": every event needs the field " + name);
        } else if (field.schema().getType() != type) {
            violations.add(schema.getName() + "." + name + ": must be a required " + type.getName() + ", is "
                    + field.schema());
        }
    }

    private static void docs(Schema schema, List<String> violations, Set<String> seen) {
        switch (schema.getType()) {
            case RECORD -> {
                if (!seen.add(schema.getFullName())) {
                    return;
                }
                if (blank(schema.getDoc())) {
                    violations.add(schema.getFullName() + ": record has no doc");
                }
                for (Schema.Field field : schema.getFields()) {
                    if (blank(field.doc())) {
                        violations.add(schema.getName() + "." + field.name() + ": field has no doc");
                    }
                    docs(field.schema(), violations, seen);
                }
            }
            case ENUM -> {
                if (seen.add(schema.getFullName()) && blank(schema.getDoc())) {
                    violations.add(schema.getFullName() + ": enum has no doc");
                }
            }
            case UNION -> {
                for (Schema branch : schema.getTypes()) {
                    docs(branch, violations, seen);
                }
            }
            case ARRAY -> docs(schema.getElementType(), violations, seen);
            case MAP -> docs(schema.getValueType(), violations, seen);
            default -> {
            }
        }
    }

    private static boolean blank(String text) {
        return text == null || text.isBlank();
    }
}
