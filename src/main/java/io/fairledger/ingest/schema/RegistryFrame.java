package io.fairledger.ingest.schema;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Where a schema registry's serializer put the id of the writer schema, and where the Avro binary body starts. Two
 * layouts exist (kafka-schemas/README.md):
 * <ul>
 * <li>in the value: the magic byte {@code 0}, then the id big-endian, then the body. Confluent's serializers and
 * Apicurio's with {@code as-confluent} (or Apicurio 3's default) write a 4-byte id (Confluent's schema id, Apicurio's
 * content id); Apicurio 2's serializers with headers turned off write an 8-byte global id. The bytes do not say which,
 * so {@link PayloadId} is configured;</li>
 * <li>in a header: Apicurio 2's serializers by default put the id, 8 bytes big-endian, in
 * {@value #GLOBAL_ID_HEADER} (or {@value #CONTENT_ID_HEADER}) and leave the bare body as the value.</li>
 * </ul>
 *
 * @param kind       which id of the registry it is
 * @param id         the id
 * @param bodyOffset where the Avro binary body starts in the value
 */
public record RegistryFrame(IdKind kind, long id, int bodyOffset) {

    /** The magic byte that starts a registry-framed value; no JSON text and no Avro single-object value starts so. */
    public static final byte MAGIC = 0;
    /** Apicurio 2's header with the global id of the value's writer schema. */
    public static final String GLOBAL_ID_HEADER = "apicurio.value.globalId";
    /** Apicurio 2's header with the content id of the value's writer schema. */
    public static final String CONTENT_ID_HEADER = "apicurio.value.contentId";
    /** Apicurio's header naming the Avro encoding of the value, {@code BINARY} (the default) or {@code JSON}. */
    public static final String ENCODING_HEADER = "apicurio.value.encoding";

    /** The two ids a registry gives a schema. */
    public enum IdKind {
        /**
         * The id of the schema text: Confluent's schema id, Apicurio's content id (which Apicurio's Confluent-compatible
         * API serves as the schema id).
         */
        CONTENT_ID("content id"),
        /** Apicurio's id of one version of one artifact. */
        GLOBAL_ID("global id");

        private final String label;

        IdKind(String label) {
            this.label = label;
        }

        /** e.g. {@code content id}. */
        public String label() {
            return label;
        }
    }

    /** What follows the magic byte in the value: configured, since the bytes do not tell. */
    public enum PayloadId {
        /** A 4-byte content id (Confluent's wire format). */
        CONTENT_ID(IdKind.CONTENT_ID, 4),
        /** An 8-byte global id (Apicurio 2's serializers with headers off). */
        GLOBAL_ID(IdKind.GLOBAL_ID, 8);

        private final IdKind kind;
        private final int length;

        PayloadId(IdKind kind, int length) {
            this.kind = kind;
            this.length = length;
        }

        /** The number of id bytes after the magic byte. */
        public int length() {
            return length;
        }
    }

    /** e.g. {@code content id 7}. */
    public String describe() {
        return kind.label() + " " + id;
    }

    /** Whether {@code value} starts with the {@link #MAGIC} byte. */
    static boolean hasMagic(byte[] value) {
        return value.length > 0 && value[0] == MAGIC;
    }

    /**
     * The frame an Apicurio id header describes (the whole value is the body), or null when the record has no such
     * header.
     *
     * @throws RejectedException when the header is not an 8-byte id, or the value is Avro's JSON encoding
     */
    static RegistryFrame fromHeaders(Headers headers) throws RejectedException {
        if (headers == null) {
            return null;
        }
        Header global = headers.lastHeader(GLOBAL_ID_HEADER);
        Header content = headers.lastHeader(CONTENT_ID_HEADER);
        Header id = global != null ? global : content;
        if (id == null) {
            return null;
        }
        Header encoding = headers.lastHeader(ENCODING_HEADER);
        if (encoding != null && encoding.value() != null
                && !"BINARY".equalsIgnoreCase(new String(encoding.value(), StandardCharsets.UTF_8))) {
            throw new RejectedException(Rejection.Reason.UNDECODABLE, ENCODING_HEADER,
                    "\"" + new String(encoding.value(), StandardCharsets.UTF_8)
                            + "\"; only Avro's binary encoding (BINARY) is read");
        }
        if (id.value() == null || id.value().length != Long.BYTES) {
            throw new RejectedException(Rejection.Reason.UNDECODABLE, id.key(), "expected an 8-byte big-endian id, got "
                    + (id.value() == null ? "no value" : id.value().length + " byte(s)"));
        }
        return new RegistryFrame(global != null ? IdKind.GLOBAL_ID : IdKind.CONTENT_ID,
                ByteBuffer.wrap(id.value()).getLong(), 0);
    }

    /**
     * The frame at the start of {@code value}: the magic byte and an id of {@code layout}'s length.
     *
     * @throws RejectedException when the value does not start with the magic byte, or ends before the body
     */
    static RegistryFrame fromPayload(byte[] value, PayloadId layout) throws RejectedException {
        if (!hasMagic(value)) {
            String start = value.length == 0
                    ? "the value is empty"
                    : String.format("the value starts with 0x%02x", value[0] & 0xFF);
            throw new RejectedException(Rejection.Reason.UNDECODABLE, null,
                    "not schema-registry framing: " + start + ", not the magic byte 0x00");
        }
        int bodyOffset = 1 + layout.length();
        if (value.length <= bodyOffset) {
            throw new RejectedException(Rejection.Reason.UNDECODABLE, null,
                    "schema-registry frame truncated: " + value.length + " byte(s), need the magic byte, the "
                            + layout.length() + "-byte " + layout.kind.label() + " and an Avro body");
        }
        ByteBuffer id = ByteBuffer.wrap(value, 1, layout.length());
        long parsed = layout.length() == Long.BYTES ? id.getLong() : Integer.toUnsignedLong(id.getInt());
        return new RegistryFrame(layout.kind, parsed, bodyOffset);
    }
}
