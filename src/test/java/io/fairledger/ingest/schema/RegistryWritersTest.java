package io.fairledger.ingest.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import io.fairledger.ingest.schema.RegistryFrame.IdKind;
import io.fairledger.ingest.schema.RegistryFrame.PayloadId;

/**
 * The writer schemas of registry-framed records: matched by fingerprint or resolved when compatible, cached within a
 * bound, unknown ids forgotten after a while, an unreachable registry never cached nor taken for a verdict. The
 * registry here is a map that counts the questions; {@code RegistryClientTest} and
 * {@code SchemaRegistryIngestionTest} ask a real Apicurio Registry.
 */
class RegistryWritersTest {

    private static final String YARN = TestEventLines.YARN;
    private static final Schema CURRENT = EventType.YARN_CONTAINER.schema();
    /** The current schema plus a field with a default: a version fairledger has not seen, but can read. */
    private static final Schema NEWER = new Schema.Parser().parse(CURRENT.toString().replace("\"fields\":[",
            "\"fields\":[{\"name\":\"site\",\"type\":[\"null\",\"string\"],\"default\":null},"));
    /** allocatedVcores as a string: a version no reader of the current schema can read. */
    private static final String INCOMPATIBLE = CURRENT.toString().replace(
            "{\"name\":\"allocatedVcores\",\"type\":\"int\"", "{\"name\":\"allocatedVcores\",\"type\":\"string\"");

    private final CountingRegistry registry = new CountingRegistry();
    private final MutableClock clock = new MutableClock();

    @Test
    void theCurrentSchemaIsRecognisedByFingerprintWhateverItsLayoutAndDocs() throws Exception {
        registry.schemas.put(1L, CURRENT.toString(true).replace("A YARN container", "Some other doc"));
        RegistryWriters writers = writers(10);
        AvroSingleObjectReader.WriterSchema writer = writers.writer(frame(1));
        assertThat(writer.type()).isEqualTo(EventType.YARN_CONTAINER);
        assertThat(writer.schema()).as("the known version itself").isSameAs(CURRENT);
    }

    @Test
    void anIdIsAskedOnceThenAnsweredFromTheCache() throws Exception {
        registry.schemas.put(1L, CURRENT.toString());
        RegistryWriters writers = writers(10);
        for (int i = 0; i < 5; i++) {
            writers.writer(frame(1));
        }
        assertThat(registry.asked).containsExactly(1L);
    }

    @Test
    void theCacheKeepsAtMostItsCapacityDroppingTheLeastRecentlyUsed() throws Exception {
        for (long id = 1; id <= 3; id++) {
            registry.schemas.put(id, CURRENT.toString());
        }
        RegistryWriters writers = writers(2);
        writers.writer(frame(1));
        writers.writer(frame(2));
        writers.writer(frame(1));
        writers.writer(frame(3));
        assertThat(writers.cached()).isEqualTo(2);
        writers.writer(frame(1));
        writers.writer(frame(3));
        assertThat(registry.asked).as("1 and 3 still cached").containsExactly(1L, 2L, 3L);
        writers.writer(frame(2));
        assertThat(registry.asked).as("2 was dropped").containsExactly(1L, 2L, 3L, 2L);
        assertThat(writers.cached()).isEqualTo(2);
    }

    @Test
    void anUnknownIdIsRejectedAndAskedAgainOnlyOnceItsMemoryRunsOut() {
        RegistryWriters writers = writers(10);
        assertThatThrownBy(() -> writers.writer(frame(99)))
                .isInstanceOfSatisfying(RejectedException.class, e -> assertThat(e.rejection().describe())
                        .isEqualTo("unknown-schema-id: content id 99 is not in the schema registry (no id 99)"));
        assertThatThrownBy(() -> writers.writer(frame(99))).isInstanceOf(RejectedException.class);
        assertThat(registry.asked).containsExactly(99L);

        registry.schemas.put(99L, CURRENT.toString());
        clock.advance(RegistryWriters.UNKNOWN_ID_MEMORY.minusSeconds(1));
        assertThatThrownBy(() -> writers.writer(frame(99))).isInstanceOf(RejectedException.class);
        clock.advance(Duration.ofSeconds(1));
        assertThat(assertDoesNotReject(writers, frame(99)).type()).isEqualTo(EventType.YARN_CONTAINER);
        assertThat(registry.asked).containsExactly(99L, 99L);
    }

    @Test
    void anUnreachableRegistryIsNeitherAVerdictNorCached() throws Exception {
        registry.schemas.put(1L, CURRENT.toString());
        registry.away = true;
        RegistryWriters writers = writers(10);
        assertThatThrownBy(() -> writers.writer(frame(1))).isInstanceOf(RegistryUnavailableException.class);
        registry.away = false;
        assertThat(writers.writer(frame(1)).type()).isEqualTo(EventType.YARN_CONTAINER);
        assertThat(registry.asked).containsExactly(1L, 1L);
    }

    @Test
    void aNewerCompatibleVersionIsResolvedAgainstTheCurrentSchema() throws Exception {
        registry.schemas.put(2L, NEWER.toString());
        AvroSingleObjectReader.WriterSchema writer = writers(10).writer(frame(2));
        assertThat(writer.type()).isEqualTo(EventType.YARN_CONTAINER);
        assertThat(writer.schema().getField("site")).isNotNull();
    }

    @Test
    void anIncompatibleVersionAnotherRecordOrNotAvroAtAllIsASchemaMismatch() {
        registry.schemas.put(3L, INCOMPATIBLE);
        registry.schemas.put(4L, "{\"type\":\"record\",\"name\":\"Other\",\"namespace\":\"x\",\"fields\":[]}");
        registry.schemas.put(5L, "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"type\":\"object\"}");
        registry.schemas.put(6L, "syntax = \"proto3\"; message M {}");
        RegistryWriters writers = writers(10);
        assertThat(rejection(writers, 3)).startsWith("schema-mismatch: content id 3 is a version of YarnContainerEvent"
                + " that the current schema cannot read: ").endsWith("at field allocatedVcores (/fields/9/type)");
        assertThat(rejection(writers, 4))
                .isEqualTo("schema-mismatch: content id 4 is record x.Other, not a fairledger event type");
        assertThat(rejection(writers, 5)).startsWith("schema-mismatch: content id 5 is not an Avro schema: ");
        assertThat(rejection(writers, 6)).startsWith("schema-mismatch: content id 6 is not an Avro schema: ");
    }

    @Test
    void aFramedRecordDecodesToTheEventItsJsonStandsFor() throws Exception {
        registry.schemas.put(7L, CURRENT.toString());
        registry.global.put(8L, NEWER.toString());
        EventDecoder decoder = decoder(PayloadId.CONTENT_ID);
        GenericRecord record = TestEvents.avroRecord(YARN, TestEventLines.CONTAINER);
        Decoded json = decoder.decode(YARN, EventDecoder.JSON, TestEvents.utf8(TestEventLines.CONTAINER));
        assertThat(json.isOk()).isTrue();

        assertThat(decoder.decode(YARN, (String) null, framed4(7, body(record, CURRENT)))).isEqualTo(json);
        assertThat(decoder.decode(YARN, EventDecoder.AVRO, framed4(7, body(record, CURRENT)))).isEqualTo(json);
        GenericRecord newer = new GenericData.Record(NEWER);
        CURRENT.getFields().forEach(f -> newer.put(f.name(), record.get(f.name())));
        newer.put("site", "eu-1");
        RecordHeaders headers = new RecordHeaders();
        headers.add(RegistryFrame.GLOBAL_ID_HEADER, ByteBuffer.allocate(8).putLong(8).array());
        assertThat(decoder.decode(YARN, headers, body(newer, NEWER))).as("a newer version, id in a header")
                .isEqualTo(json);
        byte[] global = ByteBuffer.allocate(9 + body(newer, NEWER).length).put((byte) 0).putLong(8)
                .put(body(newer, NEWER)).array();
        assertThat(decoder(PayloadId.GLOBAL_ID).decode(YARN, (String) null, global)).isEqualTo(json);
    }

    @Test
    void aFramedRecordIsStillCheckedForItsTopicItsBodyAndItsFields() throws Exception {
        registry.schemas.put(7L, CURRENT.toString());
        EventDecoder decoder = decoder(PayloadId.CONTENT_ID);
        byte[] body = body(TestEvents.avroRecord(YARN, TestEventLines.CONTAINER), CURRENT);
        assertThat(describe(decoder.decode(EventTopics.JOBS, (String) null, framed4(7, body))))
                .startsWith("schema-mismatch: a YarnContainerEvent record does not belong on fairledger.jobs");
        byte[] trailing = java.util.Arrays.copyOf(framed4(7, body), body.length + 6);
        assertThat(describe(decoder.decode(YARN, (String) null, trailing))).isEqualTo("undecodable: trailing bytes"
                + " after the YarnContainerEvent record (corrupt or not schema-registry framing)");
        byte[] cut = java.util.Arrays.copyOf(framed4(7, body), 20);
        assertThat(describe(decoder.decode(YARN, (String) null, cut)))
                .startsWith("undecodable: Avro body is not a valid YarnContainerEvent record");
        String negative = TestEventLines.CONTAINER.replace("\"allocatedVcores\":1", "\"allocatedVcores\":-1");
        assertThat(describe(decoder.decode(YARN, (String) null,
                framed4(7, body(TestEvents.avroRecord(YARN, negative), CURRENT))))).startsWith("invalid-resources");
        assertThat(describe(decoder.decode(YARN, (String) null, framed4(99, body))))
                .isEqualTo("unknown-schema-id: content id 99 is not in the schema registry (no id 99)");
    }

    @Test
    void theDecoderLetsAnUnreachableRegistryThroughInsteadOfRejecting() throws Exception {
        registry.schemas.put(7L, CURRENT.toString());
        registry.away = true;
        EventDecoder decoder = decoder(PayloadId.CONTENT_ID);
        byte[] value = framed4(7, body(TestEvents.avroRecord(YARN, TestEventLines.CONTAINER), CURRENT));
        assertThatThrownBy(() -> decoder.decode(YARN, new RecordHeaders(), value))
                .isInstanceOf(RegistryUnavailableException.class);
        assertThatThrownBy(() -> decoder.lookUpWriterSchema(new RecordHeaders(), value))
                .isInstanceOf(RegistryUnavailableException.class);
        decoder.lookUpWriterSchema(new RecordHeaders(), TestEvents.utf8(TestEventLines.CONTAINER));
        decoder.lookUpWriterSchema(new RecordHeaders(), new byte[]{0, 1});
        assertThat(registry.asked).as("neither JSON nor a truncated frame asks").containsExactly(7L, 7L);
        registry.away = false;
        decoder.lookUpWriterSchema(new RecordHeaders(), value);
        assertThat(decoder.decode(YARN, new RecordHeaders(), value).isOk()).isTrue();
        assertThat(registry.asked).as("looked up ahead, then from the cache").containsExactly(7L, 7L, 7L);
    }

    private RegistryWriters writers(int capacity) {
        return new RegistryWriters(registry, new AvroSingleObjectReader(List.of())::known, capacity, clock);
    }

    private EventDecoder decoder(PayloadId payloadId) {
        return new EventDecoder(TestEvents.CLOCK, EventDecoder.DEFAULT_MAX_FUTURE_SKEW, List.of(), registry, payloadId,
                10);
    }

    private static RegistryFrame frame(long id) {
        return new RegistryFrame(IdKind.CONTENT_ID, id, 5);
    }

    private static AvroSingleObjectReader.WriterSchema assertDoesNotReject(RegistryWriters writers,
            RegistryFrame frame) {
        try {
            return writers.writer(frame);
        } catch (RejectedException e) {
            throw new AssertionError("rejected: " + e.rejection().describe(), e);
        }
    }

    private static String rejection(RegistryWriters writers, long id) {
        try {
            writers.writer(frame(id));
            throw new AssertionError("content id " + id + " was accepted");
        } catch (RejectedException e) {
            return e.rejection().describe();
        }
    }

    private static String describe(Decoded decoded) {
        assertThat(decoded).isInstanceOf(Decoded.Rejected.class);
        return ((Decoded.Rejected) decoded).rejection().describe();
    }

    static byte[] body(GenericRecord record, Schema schema) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(schema).write(record, encoder);
        encoder.flush();
        return out.toByteArray();
    }

    static byte[] framed4(int id, byte[] body) {
        return ByteBuffer.allocate(5 + body.length).put((byte) 0).putInt(id).put(body).array();
    }

    /** Schemas by content id and by global id; records every id asked; answers as if away while told to. */
    private static final class CountingRegistry implements SchemaRegistry {
        final Map<Long, String> schemas = new HashMap<>();
        final Map<Long, String> global = new HashMap<>();
        final List<Long> asked = new ArrayList<>();
        volatile boolean away;

        @Override
        public synchronized Answer lookup(IdKind kind, long id) {
            asked.add(id);
            if (away) {
                throw new RegistryUnavailableException("the registry is away", null);
            }
            String schema = (kind == IdKind.CONTENT_ID ? schemas : global).get(id);
            return schema == null ? Answer.unknown("no id " + id) : Answer.found(schema);
        }
    }

    private static final class MutableClock extends Clock {
        private Instant now = Instant.parse("2026-11-22T10:00:00Z");

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
