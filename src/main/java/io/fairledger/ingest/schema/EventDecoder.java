package io.fairledger.ingest.schema;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Turns the value of a record on a fairledger event topic into a validated {@link FairledgerEvent}, or a
 * {@link Rejection} saying what is wrong and where. Never throws for bad input.
 * <p>
 * The encoding is chosen by the {@value #CONTENT_TYPE_HEADER} header: {@value #JSON} for the plain JSON encoding,
 * {@value #AVRO} (or {@code avro/binary}) for Avro single-object encoding. Without the header the value is Avro when it
 * starts with the single-object marker {@code C3 01} (which no JSON text can start with) and JSON otherwise. A value
 * framed by a schema registry's serializer (an Apicurio id header, or the magic byte {@code 0}, which neither JSON nor
 * single-object encoding starts with: {@link RegistryFrame}) is Avro whose writer schema the registry holds; a decoder
 * built with a {@link SchemaRegistry} looks it up there, one without rejects it. See {@code kafka-schemas/README.md}.
 * <p>
 * Thread-safe; one instance can serve all consumers.
 */
public final class EventDecoder {

    /** The record header that names the encoding. */
    public static final String CONTENT_TYPE_HEADER = "content-type";
    /** Content type of the plain JSON encoding. */
    public static final String JSON = "application/json";
    /** Content type of Avro single-object encoding. */
    public static final String AVRO = "application/avro";
    /**
     * How far ahead of the server clock a reported time may be: an event's (a dead letter beyond it) and a job
     * completion's {@code finishedAt} over HTTP (422 beyond it, {@code admission.rest.AdmissionResource}). The one
     * clock skew of the server; tests build decoders with others.
     */
    public static final Duration DEFAULT_MAX_FUTURE_SKEW = Duration.ofMinutes(5);

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(JsonParser.Feature.AUTO_CLOSE_SOURCE).build();
    /** The flat objects' parsers: {@link FlatJson} finds duplicate members itself, cheaper than the parser's check. */
    private static final JsonFactory FLAT = new JsonFactory();
    /** The mapper's tree reader, its root type resolved once rather than on every record. */
    private static final ObjectReader TREE = MAPPER.readerFor(JsonNode.class);

    private final EventValidator validator;
    private final AvroSingleObjectReader avro;
    /** The writer schemas of registry-framed values, or null when no registry is configured. */
    private final RegistryWriters registryWriters;
    private final RegistryFrame.PayloadId payloadId;

    /** A decoder that allows {@link #DEFAULT_MAX_FUTURE_SKEW} of clock skew. */
    public EventDecoder(Clock clock) {
        this(clock, DEFAULT_MAX_FUTURE_SKEW);
    }

    /** A decoder that rejects events more than {@code maxFutureSkew} ahead of {@code clock}. */
    public EventDecoder(Clock clock, Duration maxFutureSkew) {
        this(clock, maxFutureSkew, List.of());
    }

    /**
     * A decoder that also reads values framed by a schema registry's serializer, looking their writer schemas up in
     * {@code registry} and remembering at most {@code cacheSize} ids.
     *
     * @param payloadId what follows the magic byte in a registry-framed value
     */
    public EventDecoder(Clock clock, Duration maxFutureSkew, SchemaRegistry registry, RegistryFrame.PayloadId payloadId,
            int cacheSize) {
        this(clock, maxFutureSkew, List.of(), Objects.requireNonNull(registry, "registry"), payloadId, cacheSize);
    }

    EventDecoder(Clock clock, Duration maxFutureSkew, List<AvroSingleObjectReader.WriterSchema> earlierVersions) {
        this(clock, maxFutureSkew, earlierVersions, null, RegistryFrame.PayloadId.CONTENT_ID, 1);
    }

    EventDecoder(Clock clock, Duration maxFutureSkew, List<AvroSingleObjectReader.WriterSchema> earlierVersions,
            SchemaRegistry registry, RegistryFrame.PayloadId payloadId, int cacheSize) {
        if (maxFutureSkew.isNegative()) {
            throw new IllegalArgumentException("maxFutureSkew must not be negative, got " + maxFutureSkew);
        }
        this.validator = new EventValidator(Objects.requireNonNull(clock, "clock"), maxFutureSkew);
        this.avro = new AvroSingleObjectReader(earlierVersions);
        this.payloadId = Objects.requireNonNull(payloadId, "payloadId");
        this.registryWriters = registry == null
                ? null
                : new RegistryWriters(registry, avro::known, cacheSize, Clock.systemUTC());
    }

    /**
     * Decodes a Kafka record value, taking the encoding from its {@value #CONTENT_TYPE_HEADER} header, or the writer
     * schema's id from an Apicurio id header ({@link RegistryFrame}).
     *
     * @throws RegistryUnavailableException when the value is registry-framed and the registry cannot be asked: not a
     *                                      verdict on the record, which must be read again later
     */
    public Decoded decode(String topic, Headers headers, byte[] value) {
        return decode(topic, contentType(headers), headers, value, true);
    }

    /**
     * Looks up, ahead of {@link #decode(String, Headers, byte[])}, the writer schema of a registry-framed value, so
     * that a consumer learns the registry is away before it dead-letters anything of a batch; does nothing for other
     * values, or for ids already cached.
     *
     * @throws RegistryUnavailableException when the registry cannot be asked
     */
    public void lookUpWriterSchema(Headers headers, byte[] value) {
        if (registryWriters == null || value == null) {
            return;
        }
        try {
            RegistryFrame frame = frame(contentType(headers), headers, value);
            if (frame != null) {
                registryWriters.writer(frame);
            }
        } catch (RegistryUnavailableException e) {
            throw e;
        } catch (RejectedException | RuntimeException e) {
            // a verdict on the record, which decode gives again
        }
    }

    /**
     * Whether a record value with these headers is framed by a schema registry's serializer, so it decodes only where a
     * registry is configured.
     */
    public static boolean isRegistryFramed(Headers headers, byte[] value) {
        try {
            return frame(contentType(headers), headers, value, RegistryFrame.PayloadId.CONTENT_ID) != null;
        } catch (RejectedException e) {
            return true;
        }
    }

    private static String contentType(Headers headers) {
        String contentType = null;
        if (headers != null) {
            for (Header header : headers) {
                if (CONTENT_TYPE_HEADER.equalsIgnoreCase(header.key()) && header.value() != null) {
                    contentType = new String(header.value(), StandardCharsets.UTF_8);
                }
            }
        }
        return contentType;
    }

    /**
     * Decodes a record value from {@code topic}; {@code contentType} is the header value, or null when the record had
     * none.
     */
    public Decoded decode(String topic, String contentType, byte[] value) {
        return decode(topic, contentType, null, value, true);
    }

    /** As {@link #decode(String, String, byte[])}, but plain JSON always through the tree: the fast path's reference. */
    Decoded decodeThroughTree(String topic, String contentType, byte[] value) {
        return decode(topic, contentType, null, value, false);
    }

    private Decoded decode(String topic, String contentType, Headers headers, byte[] value, boolean flatFastPath) {
        try {
            List<EventType> types = EventType.onTopic(topic);
            if (types.isEmpty()) {
                throw new RejectedException(Rejection.Reason.UNKNOWN_TOPIC, null,
                        "\"" + topic + "\" is not a fairledger event topic; expected one of " + EventTopics.ALL);
            }
            RegistryFrame frame = frame(contentType, headers, nonEmpty(value));
            FairledgerEvent event;
            if (frame != null) {
                event = fromRegistry(frame, value, types, topic);
            } else if (isAvro(contentType, value)) {
                event = fromAvro(value, types, topic);
            } else {
                event = fromJson(value, types, topic, flatFastPath);
            }
            validator.validate(event);
            return Decoded.ok(event);
        } catch (RejectedException e) {
            return Decoded.rejected(e.rejection());
        } catch (RegistryUnavailableException e) {
            throw e;
        } catch (RuntimeException e) {
            return unexpected(e);
        }
    }

    private RegistryFrame frame(String contentType, Headers headers, byte[] value) throws RejectedException {
        return frame(contentType, headers, value, payloadId);
    }

    /**
     * The registry frame of a value: from an Apicurio id header, else from the value when it starts with the magic
     * byte and its content type (if any) is Avro; null when the value is not registry-framed.
     */
    private static RegistryFrame frame(String contentType, Headers headers, byte[] value,
            RegistryFrame.PayloadId payloadId) throws RejectedException {
        RegistryFrame fromHeaders = RegistryFrame.fromHeaders(headers);
        if (fromHeaders != null) {
            return fromHeaders;
        }
        if (!RegistryFrame.hasMagic(value)) {
            return null;
        }
        return contentType == null || contentType.isBlank() || isAvro(contentType, value)
                ? RegistryFrame.fromPayload(value, payloadId)
                : null;
    }

    /**
     * Decodes one event in the plain JSON encoding without a topic, as the offline {@code account} command reads them
     * from a file: the {@code type} member (e.g. {@code "JobSubmitted"}, or a Mesos shape's {@code "TASK_UPDATED"})
     * says which event it is.
     */
    public Decoded decodeJson(byte[] json) {
        try {
            JsonNode root = parse(nonEmpty(json));
            JsonNode type = root.get("type");
            if (!MesosShapes.isMesosShape(root) && (type == null || type.isNull())) {
                throw new RejectedException(Rejection.Reason.MISSING_FIELD, "type",
                        "required outside a topic; one of " + typeNames());
            }
            String topic = EventType.ofJson(root).map(EventType::topic)
                    .orElseThrow(() -> new RejectedException(Rejection.Reason.SCHEMA_MISMATCH, "type",
                            type + " is not an event type; expected one of " + typeNames()));
            FairledgerEvent event = fromJson(root, EventType.onTopic(topic), topic);
            validator.validate(event);
            return Decoded.ok(event);
        } catch (RejectedException e) {
            return Decoded.rejected(e.rejection());
        } catch (RuntimeException e) {
            return unexpected(e);
        }
    }

    private static Decoded unexpected(RuntimeException e) {
        return Decoded.rejected(new Rejection(Rejection.Reason.UNDECODABLE, null,
                "unexpected " + e.getClass().getSimpleName() + " while decoding: " + e.getMessage()));
    }

    private static byte[] nonEmpty(byte[] value) throws RejectedException {
        if (value == null || value.length == 0) {
            throw new RejectedException(Rejection.Reason.UNDECODABLE, null, "the record has no value");
        }
        return value;
    }

    private static boolean isAvro(String contentType, byte[] value) throws RejectedException {
        if (contentType == null || contentType.isBlank()) {
            return AvroSingleObjectReader.hasMarker(value);
        }
        String mediaType = contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        return switch (mediaType) {
            case JSON -> false;
            case AVRO, "avro/binary" -> true;
            default -> throw new RejectedException(Rejection.Reason.UNSUPPORTED_CONTENT_TYPE, CONTENT_TYPE_HEADER,
                    "\"" + contentType + "\"; expected " + JSON + " or " + AVRO + ", or no header");
        };
    }

    private FairledgerEvent fromAvro(byte[] value, List<EventType> types, String topic) throws RejectedException {
        AvroSingleObjectReader.TypedRecord read = avro.read(value, types, topic);
        return read.type().toEvent(read.record());
    }

    private FairledgerEvent fromRegistry(RegistryFrame frame, byte[] value, List<EventType> types, String topic)
            throws RejectedException {
        if (registryWriters == null) {
            throw new RejectedException(Rejection.Reason.UNDECODABLE, null, "framed by a schema registry serializer ("
                    + frame.describe() + "), but no schema registry is configured (fairledger.ingest.registry.url)");
        }
        AvroSingleObjectReader.TypedRecord read = AvroSingleObjectReader.readBody(registryWriters.writer(frame), value,
                frame.bodyOffset(), types, topic, "schema-registry framing");
        return read.type().toEvent(read.record());
    }

    /** The event of a plain JSON record value: by the flat fast path when it applies, else through the tree. */
    private static FairledgerEvent fromJson(byte[] value, List<EventType> types, String topic, boolean flatFastPath)
            throws RejectedException {
        FairledgerEvent flat = flatFastPath ? fromFlatJson(value, types, topic) : null;
        return flat != null ? flat : fromJson(parse(value), types, topic);
    }

    /**
     * The event of a flat JSON object ({@link FlatJson}), read as {@link #fromJson(JsonNode, List, String)} reads its
     * tree; null when the value takes the tree's way: it is not a flat object, may be a Mesos shape, its type is not
     * clear, or anything in it would be rejected (the tree's way then says why, exactly as it always has).
     */
    private static FairledgerEvent fromFlatJson(byte[] value, List<EventType> types, String topic) {
        FlatJson members = FlatJson.read(FLAT, value);
        if (members == null || topic.equals(EventTopics.MESOS_TASKS) && members.get("task_id") != null) {
            return null;
        }
        JsonNode type = members.get("type");
        EventType chosen = null;
        if (type == null || type.isNull()) {
            chosen = types.size() == 1 ? types.get(0) : null;
        } else {
            for (EventType candidate : types) {
                if (type.isTextual() && candidate.typeName().equals(type.textValue())) {
                    chosen = candidate;
                }
            }
        }
        if (chosen == null) {
            return null;
        }
        try {
            return chosen.toEvent(JsonRecordReader.read(members, chosen.schema()));
        } catch (RejectedException | RuntimeException e) {
            return null;
        }
    }

    private static FairledgerEvent fromJson(JsonNode root, List<EventType> types, String topic)
            throws RejectedException {
        if (topic.equals(EventTopics.MESOS_TASKS) && MesosShapes.isMesosShape(root)) {
            root = MesosShapes.toPlain(root);
        }
        EventType type = jsonType(root, types, topic);
        GenericRecord record = JsonRecordReader.read(root, type.schema());
        return type.toEvent(record);
    }

    private static EventType jsonType(JsonNode root, List<EventType> types, String topic) throws RejectedException {
        JsonNode type = root.get("type");
        if (type == null || type.isNull()) {
            if (types.size() == 1) {
                return types.get(0);
            }
            throw new RejectedException(Rejection.Reason.MISSING_FIELD, "type", topic + " carries "
                    + types.stream().map(EventType::typeName).toList() + "; say which one in the type member");
        }
        for (EventType candidate : types) {
            if (type.isTextual() && candidate.typeName().equals(type.textValue())) {
                return candidate;
            }
        }
        throw new RejectedException(Rejection.Reason.SCHEMA_MISMATCH, "type", type + " does not belong on " + topic
                + ", which carries " + types.stream().map(EventType::typeName).toList());
    }

    static JsonNode parse(byte[] value) throws RejectedException {
        JsonNode root;
        try {
            root = TREE.readTree(value);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
            throw new RejectedException(Rejection.Reason.UNDECODABLE, null,
                    "not JSON" + where + ": " + firstLine(e.getOriginalMessage()));
        } catch (IOException e) {
            throw new RejectedException(Rejection.Reason.UNDECODABLE, null, "not JSON: " + firstLine(e.getMessage()));
        }
        if (root == null || root.isMissingNode()) {
            throw new RejectedException(Rejection.Reason.UNDECODABLE, null, "not JSON: the value is empty");
        }
        if (!root.isObject()) {
            throw new RejectedException(Rejection.Reason.UNDECODABLE, null,
                    "expected a JSON object, got " + root.getNodeType().name().toLowerCase(Locale.ROOT));
        }
        return root;
    }

    private static List<String> typeNames() {
        return Arrays.stream(EventType.values()).map(EventType::typeName).toList();
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "no detail";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
