package io.fairledger.ingest.schema;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;

/**
 * Reads Avro single-object encoding: the marker {@code C3 01}, the 8-byte little-endian CRC-64-AVRO fingerprint of the
 * writer schema, then the Avro binary body. The fingerprint selects the writer schema among the known versions of the
 * topic's types; the body is resolved against the current (reader) schema of that type.
 */
final class AvroSingleObjectReader {

    /** Marker and fingerprint. */
    static final int HEADER_LENGTH = 10;
    static final byte MARKER_0 = (byte) 0xC3;
    static final byte MARKER_1 = (byte) 0x01;

    private final Map<Long, WriterSchema> writers = new HashMap<>();

    /** A writer schema version and the type it is a version of. */
    record WriterSchema(EventType type, Schema schema) {
    }

    /**
     * Knows the current schema of every type, every released version in {@code kafka-schemas/compat/}, and
     * {@code earlierVersions}.
     */
    AvroSingleObjectReader(List<WriterSchema> earlierVersions) {
        for (EventType type : EventType.values()) {
            writers.put(type.fingerprint(), new WriterSchema(type, type.schema()));
        }
        for (String text : SchemaTexts.RELEASED) {
            Schema released = new Schema.Parser().parse(text);
            EventType type = EventType.byTypeName(released.getName()).orElseThrow(() -> new IllegalStateException(
                    "released schema " + released.getFullName() + " has no current event type"));
            writers.putIfAbsent(SchemaNormalization.parsingFingerprint64(released), new WriterSchema(type, released));
        }
        for (WriterSchema earlier : earlierVersions) {
            writers.put(SchemaNormalization.parsingFingerprint64(earlier.schema()), earlier);
        }
    }

    /** Whether {@code value} starts with the single-object marker. */
    static boolean hasMarker(byte[] value) {
        return value.length >= 2 && value[0] == MARKER_0 && value[1] == MARKER_1;
    }

    /** The type and record in {@code value}, which must be a type carried by {@code topicTypes}. */
    TypedRecord read(byte[] value, List<EventType> topicTypes, String topic) throws RejectedException {
        if (!hasMarker(value)) {
            throw new RejectedException(Rejection.Reason.UNDECODABLE, null,
                    "not Avro single-object encoding: the value does not start with the marker C3 01");
        }
        if (value.length < HEADER_LENGTH) {
            throw new RejectedException(Rejection.Reason.UNDECODABLE, null,
                    "Avro single-object header truncated: " + value.length + " bytes, need " + HEADER_LENGTH);
        }
        long fingerprint = 0;
        for (int i = HEADER_LENGTH - 1; i >= 2; i--) {
            fingerprint = (fingerprint << 8) | (value[i] & 0xFF);
        }
        WriterSchema writer = writers.get(fingerprint);
        if (writer == null) {
            throw new RejectedException(Rejection.Reason.SCHEMA_MISMATCH, null, String.format(
                    "writer schema fingerprint %016x is not a known fairledger v1 schema (a newer producer, or another"
                            + " schema altogether)",
                    fingerprint));
        }
        return readBody(writer, value, HEADER_LENGTH, topicTypes, topic, "single-object encoding");
    }

    /** The known writer schema with this CRC-64-AVRO fingerprint of its parsing canonical form, or null. */
    WriterSchema known(long fingerprint) {
        return writers.get(fingerprint);
    }

    /**
     * The record written with {@code writer} in {@code value} from {@code offset} to its end, read with the current
     * schema of the writer's type, which must be one of {@code topicTypes}.
     *
     * @param framing what framed the body, for the reason when bytes are left over
     */
    static TypedRecord readBody(WriterSchema writer, byte[] value, int offset, List<EventType> topicTypes,
            String topic, String framing) throws RejectedException {
        if (!topicTypes.contains(writer.type())) {
            throw new RejectedException(Rejection.Reason.SCHEMA_MISMATCH, null,
                    "a " + writer.type().typeName() + " record does not belong on " + topic + ", which carries "
                            + topicTypes.stream().map(EventType::typeName).toList());
        }
        BoundedBinaryDecoder body = new BoundedBinaryDecoder(value, offset, value.length - offset);
        GenericRecord record;
        try {
            record = new GenericDatumReader<GenericRecord>(writer.schema(), writer.type().schema()).read(null, body);
            if (!body.isEnd()) {
                throw new RejectedException(Rejection.Reason.UNDECODABLE, null, "trailing bytes after the "
                        + writer.type().typeName() + " record (corrupt or not " + framing + ")");
            }
        } catch (IOException | RuntimeException e) {
            throw new RejectedException(Rejection.Reason.UNDECODABLE, null, "Avro body is not a valid "
                    + writer.type().typeName() + " record: " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        return new TypedRecord(writer.type(), record);
    }

    /** A decoded Avro record and its type. */
    record TypedRecord(EventType type, GenericRecord record) {
    }
}
