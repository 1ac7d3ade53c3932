package io.fairledger.ingest.schema;

/**
 * Why a record was not accepted: a machine-readable reason, the field concerned (null when the whole record is
 * concerned) and a sentence for people. {@link #describe()} is the text for the dead-letter reason header.
 */
public record Rejection(Reason reason, String field, String detail) {

    /** The kinds of rejection; {@link #code()} is stable and meant for headers, metrics and alerts. */
    public enum Reason {
        /** The topic is not one of the fairledger event topics. */
        UNKNOWN_TOPIC("unknown-topic"),
        /** The content-type header names an encoding the decoder does not read. */
        UNSUPPORTED_CONTENT_TYPE("unsupported-content-type"),
        /** The bytes are not JSON, or not Avro single-object encoding, or are truncated or corrupt. */
        UNDECODABLE("undecodable"),
        /**
         * The bytes decode, but as a record type or schema version that does not belong on this topic; or the writer
         * schema a registry holds is not one the decoder can read.
         */
        SCHEMA_MISMATCH("schema-mismatch"),
        /** The record is framed by a schema registry serializer, and the registry has no schema of its id. */
        UNKNOWN_SCHEMA_ID("unknown-schema-id"),
        /** A required field is absent, null or blank. */
        MISSING_FIELD("missing-field"),
        /** A field has the wrong type or a value outside its domain (other than resources and event time). */
        INVALID_FIELD("invalid-field"),
        /** A resource amount is negative, not finite, or beyond {@link ResourceLimits}. */
        INVALID_RESOURCES("invalid-resources"),
        /** The event time is further in the future than the allowed clock skew. */
        FUTURE_EVENT_TIME("future-event-time");

        private final String code;

        Reason(String code) {
            this.code = code;
        }

        /** The stable kebab-case code, e.g. {@code missing-field}. */
        public String code() {
            return code;
        }
    }

    /** One line, e.g. {@code missing-field: eventId: required field is absent}. */
    public String describe() {
        return field == null ? reason.code() + ": " + detail : reason.code() + ": " + field + ": " + detail;
    }

    @Override
    public String toString() {
        return describe();
    }
}
