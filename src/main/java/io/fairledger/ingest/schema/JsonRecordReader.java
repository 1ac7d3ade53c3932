package io.fairledger.ingest.schema;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Reads the plain JSON encoding: a JSON object whose members map field by field onto an Avro record. Differences from
 * Avro's own JSON encoding, all for people typing events by hand: a nullable field is written as its value or
 * {@code null} (no union wrapper); a timestamp is an ISO-8601 instant ({@code 2026-11-22T10:00:00Z}, offsets allowed)
 * or epoch milliseconds; an enum is its symbol; absent fields, and null for a field that cannot be null, take their schema
 * default; unknown members are ignored so that events from a newer v1 producer still decode.
 */
final class JsonRecordReader {

    private JsonRecordReader() {
    }

    /** A JSON object's members by name: a tree's object node, or the members {@link FlatJson} read. */
    interface Members {
        /** The member called {@code name}, or null when there is none. */
        JsonNode get(String name);
    }

    /** The record for {@code object} under {@code schema}, or a rejection naming the first bad field. */
    static GenericRecord read(JsonNode object, Schema schema) throws RejectedException {
        return record(object::get, schema, "");
    }

    /** The record for a flat object's members under {@code schema}, as {@link #read(JsonNode, Schema)} reads it. */
    static GenericRecord read(FlatJson members, Schema schema) throws RejectedException {
        return record(members::get, schema, "");
    }

    private static GenericRecord record(Members object, Schema schema, String prefix) throws RejectedException {
        GenericData.Record record = new GenericData.Record(schema);
        for (Schema.Field field : schema.getFields()) {
            String path = prefix.isEmpty() ? field.name() : prefix + field.name();
            JsonNode node = object.get(field.name());
            if (node == null || node.isNull() && !nullable(field.schema())) {
                if (field.hasDefaultValue()) {
                    record.put(field.pos(), GenericData.get().getDefaultValue(field));
                    continue;
                }
                throw new RejectedException(Rejection.Reason.MISSING_FIELD, path,
                        node == null ? "required field is absent" : "required field is null");
            }
            record.put(field.pos(), value(node, field.schema(), path));
        }
        return record;
    }

    private static Object value(JsonNode node, Schema schema, String path) throws RejectedException {
        switch (schema.getType()) {
            case UNION :
                if (node.isNull()) {
                    return null;
                }
                return value(node, nonNullBranch(schema), path);
            case STRING :
                if (!node.isTextual()) {
                    throw invalid(path, "expected a string, got " + describe(node));
                }
                return node.textValue();
            case INT :
                if (!node.isIntegralNumber() || !node.canConvertToInt()) {
                    throw invalid(path, "expected a 32-bit integer, got " + describe(node));
                }
                return node.intValue();
            case LONG :
                return isTimestampMillis(schema) ? timestamp(node, path) : longValue(node, path);
            case DOUBLE :
                if (!node.isNumber()) {
                    throw invalid(path, "expected a number, got " + describe(node));
                }
                return node.doubleValue();
            case ENUM :
                if (!node.isTextual() || !schema.getEnumSymbols().contains(node.textValue())) {
                    throw invalid(path, "expected one of " + schema.getEnumSymbols() + ", got " + describe(node));
                }
                return new GenericData.EnumSymbol(schema, node.textValue());
            case ARRAY :
                if (!node.isArray()) {
                    throw invalid(path, "expected an array, got " + describe(node));
                }
                List<Object> items = new ArrayList<>(node.size());
                for (int i = 0; i < node.size(); i++) {
                    items.add(value(node.get(i), schema.getElementType(), path + "[" + i + "]"));
                }
                return new GenericData.Array<>(schema, items);
            case RECORD :
                if (!node.isObject()) {
                    throw invalid(path, "expected an object, got " + describe(node));
                }
                return record(node::get, schema, path + ".");
            default :
                throw invalid(path, "schema type " + schema.getType() + " has no JSON mapping");
        }
    }

    private static long longValue(JsonNode node, String path) throws RejectedException {
        if (!node.isIntegralNumber() || !node.canConvertToLong()) {
            throw invalid(path, "expected a 64-bit integer, got " + describe(node));
        }
        return node.longValue();
    }

    private static long timestamp(JsonNode node, String path) throws RejectedException {
        if (node.isIntegralNumber() && node.canConvertToLong()) {
            return node.longValue();
        }
        if (node.isTextual()) {
            String text = node.textValue();
            try {
                return Instant.parse(text).toEpochMilli();
            } catch (DateTimeException notAnInstant) {
                try {
                    return OffsetDateTime.parse(text).toInstant().toEpochMilli();
                } catch (DateTimeException | ArithmeticException notAnOffsetDateTime) {
                    throw invalid(path, "expected an ISO-8601 instant such as 2026-11-22T10:00:00Z, got \""
                            + abbreviate(text) + "\"");
                }
            } catch (ArithmeticException outOfRange) {
                throw invalid(path, "instant \"" + abbreviate(text) + "\" is out of range");
            }
        }
        throw invalid(path, "expected an ISO-8601 instant or epoch milliseconds, got " + describe(node));
    }

    private static boolean nullable(Schema schema) {
        return schema.getType() == Schema.Type.UNION && schema.getTypes().stream().anyMatch(s -> s.isNullable());
    }

    private static Schema nonNullBranch(Schema union) {
        for (Schema branch : union.getTypes()) {
            if (branch.getType() != Schema.Type.NULL) {
                return branch;
            }
        }
        throw new IllegalStateException("a union of null only: " + union);
    }

    private static boolean isTimestampMillis(Schema schema) {
        LogicalType logicalType = schema.getLogicalType();
        return logicalType != null && logicalType.getName().equals(LogicalTypes.timestampMillis().getName());
    }

    private static RejectedException invalid(String path, String detail) {
        return new RejectedException(Rejection.Reason.INVALID_FIELD, path, detail);
    }

    private static String describe(JsonNode node) {
        if (node.isTextual()) {
            return "the string \"" + abbreviate(node.textValue()) + "\"";
        }
        if (node.isContainerNode()) {
            return node.isArray() ? "an array" : "an object";
        }
        return abbreviate(node.toString());
    }

    private static String abbreviate(String text) {
        return text.length() <= 60 ? text : text.substring(0, 60) + "...";
    }
}
